package payloadstore

import (
	"context"
	commonpb "go.temporal.io/api/common/v1"
	"os"
	"testing"
	"time"
)

func TestFS(t *testing.T) {
	dir := t.TempDir()
	d, _, err := Open(context.Background(), "file://"+dir)
	if err != nil {
		t.Fatal(err)
	}
	f := d.(*FS)
	exercise(t, f, func(key string, data []byte) {
		if err := os.WriteFile(f.path(key), data, 0o600); err != nil {
			t.Fatal(err)
		}
	})
}

// TestFSRestoreRefreshesTime: storing a payload that is already stored
// moves its time forward, so an expiry by age spares what a recent run
// stored again.
func TestFSRestoreRefreshesTime(t *testing.T) {
	f, err := NewFS(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	cs, err := f.Store(storeCtx(), []*commonpb.Payload{payload(`"old"`)})
	if err != nil {
		t.Fatal(err)
	}
	p := f.path(cs[0].ClaimData[claimKey])
	old := time.Now().Add(-48 * time.Hour)
	if err := os.Chtimes(p, old, old); err != nil {
		t.Fatal(err)
	}
	if _, err := f.Store(storeCtx(), []*commonpb.Payload{payload(`"old"`)}); err != nil {
		t.Fatal(err)
	}
	st, err := os.Stat(p)
	if err != nil {
		t.Fatal(err)
	}
	if time.Since(st.ModTime()) > time.Hour {
		t.Errorf("stored again, the object still dates from %v", st.ModTime())
	}
}

func TestOpenRefusesUnknownSchemes(t *testing.T) {
	for _, s := range []string{"", "ftp://x/y", "file://otherhost/x", "s3://"} {
		if _, _, err := Open(context.Background(), s); err == nil {
			t.Errorf("Open(%q) succeeded", s)
		}
	}
}
