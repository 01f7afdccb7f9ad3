package payloadstore

import (
	"bytes"
	"context"
	"net/http/httptest"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	"github.com/johannesboyne/gofakes3"
	"github.com/johannesboyne/gofakes3/backend/s3mem"
)

// TestS3 runs the driver against an in-process S3 (gofakes3) over HTTP,
// addressed the way an S3-compatible store is: an endpoint URL, path
// style, credentials from the standard AWS variables.
func TestS3(t *testing.T) {
	backend := s3mem.New()
	if err := backend.CreateBucket("payloads"); err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(gofakes3.New(backend).Server())
	defer srv.Close()
	t.Setenv("AWS_ACCESS_KEY_ID", "test")
	t.Setenv("AWS_SECRET_ACCESS_KEY", "test")
	t.Setenv("AWS_CONFIG_FILE", "/dev/null")
	t.Setenv("AWS_SHARED_CREDENTIALS_FILE", "/dev/null")
	d, _, err := Open(context.Background(), "s3://payloads/jinjabox/run?region=us-east-1&path_style=true&endpoint="+srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	s := d.(*S3)
	exercise(t, s, func(key string, data []byte) {
		_, err := s.client.PutObject(context.Background(), &s3.PutObjectInput{Bucket: aws.String("payloads"), Key: aws.String(s.key(key)), Body: bytes.NewReader(data)})
		if err != nil {
			t.Fatal(err)
		}
	})
	if got := s.key("ab" + "cd"); got != "jinjabox/run/ab/abcd" {
		t.Errorf("object key %q", got)
	}
}
