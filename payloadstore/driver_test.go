package payloadstore

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"

	commonpb "go.temporal.io/api/common/v1"
	"go.temporal.io/sdk/converter"
)

func payload(data string) *commonpb.Payload {
	return &commonpb.Payload{Metadata: map[string][]byte{"encoding": []byte("json/plain")}, Data: []byte(data)}
}

func storeCtx() converter.StorageDriverStoreContext {
	return converter.StorageDriverStoreContext{Context: context.Background()}
}

func retrieveCtx() converter.StorageDriverRetrieveContext {
	return converter.StorageDriverRetrieveContext{Context: context.Background()}
}

// exercise runs what every driver must do: payloads back byte for byte
// in order (one of 3 MB, one twice), a claim naming no digest refused
// before the store is read (paths, SQL, keys of another shape), a claim
// of nothing stored refused as ErrMissing; corrupt replaces the object
// of a claim with other bytes, which must then be refused as ErrCorrupt.
func exercise(t *testing.T, d converter.StorageDriver, corrupt func(key string, data []byte)) {
	t.Helper()
	big := strings.Repeat("x", 3<<20)
	in := []*commonpb.Payload{payload(`"a"`), payload(big), payload(`"a"`), payload(`{"k":[1,2]}`)}
	cs, err := d.Store(storeCtx(), in)
	if err != nil {
		t.Fatalf("Store: %v", err)
	}
	if len(cs) != len(in) {
		t.Fatalf("Store gave %d claims for %d payloads", len(cs), len(in))
	}
	if cs[0].ClaimData[claimKey] != cs[2].ClaimData[claimKey] || cs[0].ClaimData[claimKey] == cs[1].ClaimData[claimKey] {
		t.Errorf("claims are not content addressed: %v", cs)
	}
	out, err := d.Retrieve(retrieveCtx(), cs)
	if err != nil {
		t.Fatalf("Retrieve: %v", err)
	}
	for i := range in {
		if !bytes.Equal(out[i].GetData(), in[i].GetData()) || string(out[i].GetMetadata()["encoding"]) != "json/plain" {
			t.Errorf("payload %d came back as %.40q", i, out[i].GetData())
		}
	}
	for _, bad := range []string{"", "../../etc/passwd", "x' OR '1'='1", strings.Repeat("A", 64), strings.Repeat("0", 63) + "/"} {
		_, err := d.Retrieve(retrieveCtx(), []converter.StorageDriverClaim{{ClaimData: map[string]string{claimKey: bad}}})
		if !errors.Is(err, ErrBadClaim) {
			t.Errorf("claim %q: %v, want ErrBadClaim", bad, err)
		}
	}
	_, err = d.Retrieve(retrieveCtx(), []converter.StorageDriverClaim{{ClaimData: map[string]string{claimKey: strings.Repeat("0", 64)}}})
	if !errors.Is(err, ErrMissing) {
		t.Errorf("claim of nothing stored: %v, want ErrMissing", err)
	}
	objs, _ := encodeAll(in[3:])
	corrupt(objs[0].key, []byte("other bytes"))
	if _, err := d.Retrieve(retrieveCtx(), cs[3:]); !errors.Is(err, ErrCorrupt) {
		t.Errorf("corrupted object: %v, want ErrCorrupt", err)
	}
}
