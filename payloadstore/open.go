package payloadstore

import (
	"context"
	"fmt"
	"io"
	"net/url"
	"strconv"
	"strings"

	"go.temporal.io/sdk/converter"
)

// DefaultThreshold is the SDK's: payloads of 256 KiB or more are stored.
const DefaultThreshold = 256 << 10

// Open is the driver a store URL names:
//   - a path, or file:///path: FS on that directory;
//   - postgres://... or postgresql://...: Postgres on that database;
//   - s3://bucket/prefix?region=R&endpoint=URL&path_style=true: S3.
//
// The io.Closer releases the driver's connections (a no-op for FS).
func Open(ctx context.Context, store string) (converter.StorageDriver, io.Closer, error) {
	var nop io.Closer = io.NopCloser(nil)
	switch {
	case store == "":
		return nil, nil, fmt.Errorf("payloadstore: no store named")
	case strings.HasPrefix(store, "postgres://"), strings.HasPrefix(store, "postgresql://"):
		p, err := NewPostgres(ctx, store)
		if err != nil {
			return nil, nil, err
		}
		return p, p, nil
	case strings.HasPrefix(store, "s3://"):
		u, err := url.Parse(store)
		if err != nil {
			return nil, nil, fmt.Errorf("payloadstore: %w", err)
		}
		q := u.Query()
		o := S3Options{Bucket: u.Host, Prefix: strings.TrimPrefix(u.Path, "/"), Region: q.Get("region"), Endpoint: q.Get("endpoint")}
		if ps := q.Get("path_style"); ps != "" {
			if o.PathStyle, err = strconv.ParseBool(ps); err != nil {
				return nil, nil, fmt.Errorf("payloadstore: path_style=%q: %w", ps, err)
			}
		}
		s, err := NewS3(ctx, o)
		if err != nil {
			return nil, nil, err
		}
		return s, nop, nil
	case strings.HasPrefix(store, "file://"):
		u, err := url.Parse(store)
		if err != nil {
			return nil, nil, fmt.Errorf("payloadstore: %w", err)
		}
		if u.Host != "" && u.Host != "localhost" {
			return nil, nil, fmt.Errorf("payloadstore: %s: a file URL names a local directory (file:///path)", store)
		}
		f, err := NewFS(u.Path)
		if err != nil {
			return nil, nil, err
		}
		return f, nop, nil
	case strings.Contains(store, "://"):
		return nil, nil, fmt.Errorf("payloadstore: %s: want a directory, file://, postgres://, postgresql:// or s3://", store)
	default:
		f, err := NewFS(store)
		if err != nil {
			return nil, nil, err
		}
		return f, nop, nil
	}
}

// ExternalStorage is the SDK's setting for one driver: payloads of
// threshold bytes or more (0: DefaultThreshold) go to d.
func ExternalStorage(d converter.StorageDriver, threshold int) converter.ExternalStorage {
	if threshold <= 0 {
		threshold = DefaultThreshold
	}
	return converter.ExternalStorage{Drivers: []converter.StorageDriver{d}, PayloadSizeThreshold: threshold}
}
