package payloadstore

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	commonpb "go.temporal.io/api/common/v1"
	"go.temporal.io/sdk/converter"
)

// FS stores payloads as files under one directory: Dir/ab/abcdef..., the
// digest's first two hex digits a level of directories. It is for one
// host, or hosts sharing a file system: `make run` uses it. Writes are
// atomic (a temporary file in the same directory, synced, then renamed),
// so a reader never sees half an object.
type FS struct {
	// Dir holds the objects; it is created when missing.
	Dir string
	// DriverName is the name stored with every claim (Name): "fs" when
	// empty. Changing it makes existing claims unreadable.
	DriverName string
}

var _ converter.StorageDriver = (*FS)(nil)

// NewFS is the FS driver on dir, which it creates if it is missing.
func NewFS(dir string) (*FS, error) {
	if dir == "" {
		return nil, errors.New("payloadstore: the file store needs a directory")
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(abs, 0o750); err != nil {
		return nil, fmt.Errorf("payloadstore: %w", err)
	}
	return &FS{Dir: abs}, nil
}

// Name is the driver's name in claims.
func (f *FS) Name() string {
	if f.DriverName == "" {
		return "fs"
	}
	return f.DriverName
}

// Type is the driver's kind.
func (f *FS) Type() string { return "jinjabox.fs" }

func (f *FS) path(key string) string { return filepath.Join(f.Dir, key[:2], key) }

// Store writes each payload unless its object exists, whose time it then
// refreshes.
func (f *FS) Store(ctx converter.StorageDriverStoreContext, payloads []*commonpb.Payload) ([]converter.StorageDriverClaim, error) {
	objs, err := encodeAll(payloads)
	if err != nil {
		return nil, err
	}
	for i, o := range objs {
		err := ctx.GetLimiter().Permit(ctx.Context, payloads[i], func() error { return f.put(o) })
		if err != nil {
			return nil, err
		}
	}
	return claims(objs), nil
}

func (f *FS) put(o object) error {
	p := f.path(o.key)
	if st, err := os.Stat(p); err == nil && st.Size() == int64(len(o.data)) {
		now := time.Now()
		return os.Chtimes(p, now, now)
	}
	if err := os.MkdirAll(filepath.Dir(p), 0o750); err != nil {
		return fmt.Errorf("payloadstore: %w", err)
	}
	tmp, err := os.CreateTemp(filepath.Dir(p), "."+o.key[:8]+"-*")
	if err != nil {
		return fmt.Errorf("payloadstore: %w", err)
	}
	_, werr := tmp.Write(o.data)
	if werr == nil {
		werr = tmp.Sync()
	}
	if cerr := tmp.Close(); werr == nil {
		werr = cerr
	}
	if werr == nil {
		werr = os.Rename(tmp.Name(), p)
	}
	if werr != nil {
		_ = os.Remove(tmp.Name())
		return fmt.Errorf("payloadstore: storing %s: %w", o.key, werr)
	}
	return nil
}

// Retrieve reads each claim's object and checks it against its digest.
func (f *FS) Retrieve(ctx converter.StorageDriverRetrieveContext, cs []converter.StorageDriverClaim) ([]*commonpb.Payload, error) {
	keys, err := keysOf(cs)
	if err != nil {
		return nil, err
	}
	out := make([]*commonpb.Payload, len(keys))
	for i, k := range keys {
		err := ctx.GetLimiter().Permit(ctx.Context, cs[i], func() error {
			data, err := os.ReadFile(f.path(k))
			if errors.Is(err, fs.ErrNotExist) {
				return fmt.Errorf("%w: %s in %s", ErrMissing, k, f.Dir)
			}
			if err != nil {
				return fmt.Errorf("payloadstore: %w", err)
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
