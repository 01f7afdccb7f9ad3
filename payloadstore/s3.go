package payloadstore

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"path"

	"github.com/aws/aws-sdk-go-v2/aws"
	awsconfig "github.com/aws/aws-sdk-go-v2/config"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	"github.com/aws/aws-sdk-go-v2/service/s3/types"
	commonpb "go.temporal.io/api/common/v1"
	"go.temporal.io/sdk/converter"
)

// S3 stores payloads as objects of an S3 bucket (or an S3-compatible
// store: MinIO, Ceph, R2), for clusters and for Temporal Cloud, whose
// workers share no disk or database. Credentials and region come from
// the AWS SDK's default chain (AWS_* variables, shared config and
// credentials files, an instance or task role).
type S3 struct {
	client *s3.Client
	bucket string
	prefix string
	// DriverName is the name stored with every claim: "s3" when empty.
	DriverName string
}

var _ converter.StorageDriver = (*S3)(nil)

// S3Options locate the bucket.
type S3Options struct {
	Bucket string
	// Prefix is prepended to every object key ("jinjabox/payloads/").
	Prefix string
	// Region overrides the default chain's region.
	Region string
	// Endpoint is an S3-compatible store's URL (empty: AWS's).
	Endpoint string
	// PathStyle addresses buckets as endpoint/bucket/key, as most
	// S3-compatible stores want.
	PathStyle bool
}

// NewS3 is the S3 driver on o's bucket.
func NewS3(ctx context.Context, o S3Options) (*S3, error) {
	if o.Bucket == "" {
		return nil, errors.New("payloadstore: the S3 store needs a bucket")
	}
	var loads []func(*awsconfig.LoadOptions) error
	if o.Region != "" {
		loads = append(loads, awsconfig.WithRegion(o.Region))
	}
	cfg, err := awsconfig.LoadDefaultConfig(ctx, loads...)
	if err != nil {
		return nil, fmt.Errorf("payloadstore: AWS settings: %w", err)
	}
	client := s3.NewFromConfig(cfg, func(so *s3.Options) {
		if o.Endpoint != "" {
			so.BaseEndpoint = aws.String(o.Endpoint)
		}
		so.UsePathStyle = o.PathStyle
	})
	return &S3{client: client, bucket: o.Bucket, prefix: o.Prefix}, nil
}

// Name is the driver's name in claims.
func (s *S3) Name() string {
	if s.DriverName == "" {
		return "s3"
	}
	return s.DriverName
}

// Type is the driver's kind.
func (s *S3) Type() string { return "jinjabox.s3" }

func (s *S3) key(k string) string { return path.Join(s.prefix, k[:2], k) }

// Store puts each payload's object. A put of an existing key replaces it
// with the same bytes and a new modification time (expiry by age stays
// safe: see the package doc).
func (s *S3) Store(ctx converter.StorageDriverStoreContext, payloads []*commonpb.Payload) ([]converter.StorageDriverClaim, error) {
	objs, err := encodeAll(payloads)
	if err != nil {
		return nil, err
	}
	for i, o := range objs {
		err := ctx.GetLimiter().Permit(ctx.Context, payloads[i], func() error {
			_, err := s.client.PutObject(ctx.Context, &s3.PutObjectInput{
				Bucket:      aws.String(s.bucket),
				Key:         aws.String(s.key(o.key)),
				Body:        bytes.NewReader(o.data),
				ContentType: aws.String("application/x-protobuf"),
			})
			return err
		})
		if err != nil {
			return nil, fmt.Errorf("payloadstore: storing %s: %w", o.key, err)
		}
	}
	return claims(objs), nil
}

// Retrieve gets each claim's object and checks it against its digest.
func (s *S3) Retrieve(ctx converter.StorageDriverRetrieveContext, cs []converter.StorageDriverClaim) ([]*commonpb.Payload, error) {
	keys, err := keysOf(cs)
	if err != nil {
		return nil, err
	}
	out := make([]*commonpb.Payload, len(keys))
	for i, k := range keys {
		err := ctx.GetLimiter().Permit(ctx.Context, cs[i], func() error {
			res, err := s.client.GetObject(ctx.Context, &s3.GetObjectInput{Bucket: aws.String(s.bucket), Key: aws.String(s.key(k))})
			var nsk *types.NoSuchKey
			if errors.As(err, &nsk) {
				return fmt.Errorf("%w: %s in s3://%s/%s", ErrMissing, k, s.bucket, s.prefix)
			}
			if err != nil {
				return fmt.Errorf("payloadstore: %w", err)
			}
			defer res.Body.Close()
			data, err := io.ReadAll(res.Body)
			if err != nil {
				return fmt.Errorf("payloadstore: reading %s: %w", k, err)
			}
			out[i], err = decode(k, data)
			return err
		})
		if err != nil {
			return nil, err
		}
	}
	return out, nil
}
