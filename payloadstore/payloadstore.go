// Package payloadstore keeps large Temporal payloads outside workflow
// histories: drivers for the Temporal SDK's external storage
// (converter.ExternalStorage, experimental in go.temporal.io/sdk v1.51),
// and the settings that choose one.
//
// A payload at or over the threshold (Settings.Threshold, the SDK's
// 256 KiB by default) is stored by the driver and travels through the
// history as a claim of about a hundred bytes; the SDK resolves claims
// back into payloads before the data converter sees them, on the worker
// and on the client alike. So a batch's outputs, a large input or a large
// render are no longer held to one payload's 2 MiB: the worker, the
// starter (`jinjabox run`) and anything else reading those histories need
// the same settings (the same store, reachable from each of them).
//
// Every driver stores a payload under the SHA-256 of its protobuf
// encoding and checks that digest when it reads it back: the same
// payload stored twice is one object (a retried activity or a replayed
// workflow task stores nothing new), a claim names nothing but a digest
// (a history cannot make a driver read a path or row of its choosing),
// and a store that hands back other bytes than were stored is an error,
// never a payload. Storing an object that exists refreshes its time, so
// an expiry by age (docs/temporal.md) never removes a payload a recent
// run still refers to.
package payloadstore

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"

	commonpb "go.temporal.io/api/common/v1"
	"go.temporal.io/sdk/converter"
	"google.golang.org/protobuf/proto"
)

// claimKey is the claim's one entry: the payload's digest.
const claimKey = "sha256"

// object is a payload encoded for storage and the key it is stored under.
type object struct {
	key  string
	data []byte
}

// encodeAll encodes payloads for storage, in order.
func encodeAll(payloads []*commonpb.Payload) ([]object, error) {
	out := make([]object, len(payloads))
	for i, p := range payloads {
		b, err := proto.MarshalOptions{Deterministic: true}.Marshal(p)
		if err != nil {
			return nil, fmt.Errorf("payloadstore: encoding payload %d: %w", i, err)
		}
		sum := sha256.Sum256(b)
		out[i] = object{key: hex.EncodeToString(sum[:]), data: b}
	}
	return out, nil
}

// claims are the claims of stored objects, in order.
func claims(objs []object) []converter.StorageDriverClaim {
	out := make([]converter.StorageDriverClaim, len(objs))
	for i, o := range objs {
		out[i] = converter.StorageDriverClaim{ClaimData: map[string]string{claimKey: o.key}}
	}
	return out
}

// ErrBadClaim is what a claim that names no valid digest wraps.
var ErrBadClaim = errors.New("payloadstore: the claim names no SHA-256 digest")

// ErrCorrupt is what a stored object whose bytes do not match its digest
// wraps.
var ErrCorrupt = errors.New("payloadstore: the stored object does not match its digest")

// ErrMissing is what a claim whose object the store does not hold wraps
// (expired too early, or another store).
var ErrMissing = errors.New("payloadstore: no stored object for the claim")

// keyOf is a claim's digest, checked: 64 lower-case hex digits.
func keyOf(c converter.StorageDriverClaim) (string, error) {
	k := c.ClaimData[claimKey]
	if len(k) != 2*sha256.Size {
		return "", ErrBadClaim
	}
	for i := 0; i < len(k); i++ {
		if !('0' <= k[i] && k[i] <= '9' || 'a' <= k[i] && k[i] <= 'f') {
			return "", ErrBadClaim
		}
	}
	return k, nil
}

// decode checks data against key and decodes the payload.
func decode(key string, data []byte) (*commonpb.Payload, error) {
	sum := sha256.Sum256(data)
	if hex.EncodeToString(sum[:]) != key {
		return nil, fmt.Errorf("%w: %s", ErrCorrupt, key)
	}
	p := new(commonpb.Payload)
	if err := proto.Unmarshal(data, p); err != nil {
		return nil, fmt.Errorf("payloadstore: decoding %s: %w", key, err)
	}
	return p, nil
}

// keysOf checks every claim.
func keysOf(cs []converter.StorageDriverClaim) ([]string, error) {
	keys := make([]string, len(cs))
	for i, c := range cs {
		k, err := keyOf(c)
		if err != nil {
			return nil, fmt.Errorf("claim %d: %w", i, err)
		}
		keys[i] = k
	}
	return keys, nil
}
