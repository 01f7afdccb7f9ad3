package activities

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"time"

	"go.temporal.io/sdk/activity"
)

// IdempotencyHeader is the HTTP header OpenAIProvider sends the
// idempotency key in: the name of the IETF httpapi draft
// (draft-ietf-httpapi-idempotency-key-header) and of Stripe's API. A
// provider that ignores it loses nothing; one that honours it answers a
// retried call without billing it twice.
const IdempotencyHeader = "Idempotency-Key"

type idempotencyKeyCtx struct{}

// WithIdempotencyKey returns ctx carrying the idempotency key of one
// provider request; CompleteText sets it, a Provider reads it with
// IdempotencyKey.
func WithIdempotencyKey(ctx context.Context, key string) context.Context {
	return context.WithValue(ctx, idempotencyKeyCtx{}, key)
}

// IdempotencyKey is the idempotency key ctx carries ("" when none: a call
// made outside an activity).
func IdempotencyKey(ctx context.Context) string {
	k, _ := ctx.Value(idempotencyKeyCtx{}).(string)
	return k
}

// ActivityIdempotencyKey is the key of the activity call ctx belongs to:
// 32 hex digits of SHA-256 over the namespace, workflow ID, run ID and
// activity ID. It is the same on every attempt of the call (so a call
// retried after its worker died carries the key of the abandoned
// attempt) and differs between calls. The run ID is part of it because
// activity IDs are sequence numbers that start again in every run: a
// workflow ID reused after its run closed, a run continued as new, or a
// workflow reset (which asks for the work to be done again) must not
// reuse the keys of the run before it. "" outside an activity.
func ActivityIdempotencyKey(ctx context.Context) string {
	if !activity.IsActivity(ctx) {
		return ""
	}
	info := activity.GetInfo(ctx)
	h := sha256.New()
	for _, part := range []string{info.Namespace, info.WorkflowExecution.ID, info.WorkflowExecution.RunID, info.ActivityID} {
		h.Write([]byte(part))
		h.Write([]byte{0})
	}
	return hex.EncodeToString(h.Sum(nil))[:32]
}

// minHeartbeatEvery keeps a tiny heartbeat timeout from spinning.
const minHeartbeatEvery = 50 * time.Millisecond

// heartbeating runs f while heartbeating every third of the activity's
// heartbeat timeout, so an attempt whose worker dies is retried within
// that timeout however long f waits (a model call can take minutes).
// Heartbeats stop when f returns. The SDK sends at most one heartbeat
// per 80 % of the timeout, so ticking faster costs no RPCs; its answers
// also deliver the workflow's cancellation to ctx, which f must honour.
// Outside an activity, or without a heartbeat timeout, f just runs.
func heartbeating[T any](ctx context.Context, f func() (T, error)) (T, error) {
	return heartbeatingWith(ctx, nil, f)
}

// heartbeatingWith is heartbeating with details in every heartbeat (nil:
// none). The server keeps an attempt's last heartbeat details for the
// next attempt, so an attempt that records progress must heartbeat it
// throughout: a heartbeat without it would erase what earlier attempts
// left.
func heartbeatingWith[T any](ctx context.Context, details any, f func() (T, error)) (T, error) {
	if !activity.IsActivity(ctx) {
		return f()
	}
	timeout := activity.GetInfo(ctx).HeartbeatTimeout
	if timeout <= 0 {
		return f()
	}
	every := max(timeout/3, minHeartbeatEvery)
	stop := make(chan struct{})
	done := make(chan struct{})
	go func() {
		defer close(done)
		t := time.NewTicker(every)
		defer t.Stop()
		for {
			select {
			case <-stop:
				return
			case <-ctx.Done():
				return
			case <-t.C:
				if details == nil {
					activity.RecordHeartbeat(ctx)
				} else {
					activity.RecordHeartbeat(ctx, details)
				}
			}
		}
	}()
	defer func() { close(stop); <-done }()
	return f()
}
