package activities

import (
	"context"
	"errors"
	"strconv"

	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/temporal"

	"github.com/jinjabox/jinjabox/failure"
)

// RateLimitAttempts is how many attempts a model call may spend
// rate-limited (ProviderRateLimited, HTTP 429) beside the attempts its
// other failures may spend (ModelCall.Attempts). A rate limit says
// nothing about the call: it is the account's traffic, and the server
// says when to come back (Retry-After, the next retry's delay). Counted
// with the others, one busy minute spent a call's five attempts in
// seconds and failed a whole batch; on a budget of their own, waiting out
// a rate limit leaves the other failures' attempts whole.
const RateLimitAttempts = 10

// ModelCallAttempts is the MaximumAttempts of the retry policy of a model
// call whose failures other than rate limits may take attempts tries:
// those and RateLimitAttempts. attempts <= 0 (unlimited) stays 0.
//
// Temporal's retry policy has one attempt count for every failure, so
// the split is the activity's (rateLimitBudget): the workflow allows the
// sum and passes the first budget in ModelCall.Attempts, and the activity
// fails for good, non-retryable, when either budget is spent. The sum
// stays a bound Temporal enforces by itself.
func ModelCallAttempts(attempts int32) int32 {
	if attempts <= 0 {
		return 0
	}
	return attempts + RateLimitAttempts
}

// callProgress is what the attempts of one model call have spent, left
// for the next attempt as the activity's heartbeat details (the server
// keeps the last attempt's, and the SDK flushes a buffered heartbeat
// when an attempt fails).
type callProgress struct {
	// RateLimited counts the attempts that were rate-limited.
	RateLimited int32 `json:"rate_limited"`
}

// priorProgress is what the call's earlier attempts left (zero on the
// first attempt, or outside an activity).
func priorProgress(ctx context.Context) callProgress {
	var p callProgress
	if activity.IsActivity(ctx) && activity.HasHeartbeatDetails(ctx) {
		if activity.GetHeartbeatDetails(ctx, &p) != nil {
			p = callProgress{}
		}
	}
	return p
}

// rateLimitBudget keeps a failed attempt's error on the call's two
// attempt budgets: a rate-limited attempt counts against
// RateLimitAttempts, recorded in the heartbeat details; any other
// retryable failure against attempts, the attempt number less the
// rate-limited attempts (so an attempt lost with its worker, which
// recorded nothing, counts there). The failure that spends a budget is
// returned non-retryable: ProviderRateLimited for rate limits,
// ProviderError for the others, whose cause is the attempt's error.
// With no budget (attempts 0: unlimited, or a caller that set none)
// errors pass as they are and the retry policy's count is the only one.
func rateLimitBudget(ctx context.Context, attempts int32, prior callProgress, err error) error {
	if !activity.IsActivity(ctx) || ctx.Err() != nil {
		return err
	}
	var ae *temporal.ApplicationError
	isApp := errors.As(err, &ae)
	if isApp && ae.NonRetryable() {
		return err
	}
	if isApp && ae.Type() == failure.ErrTypeRateLimited {
		p := prior
		p.RateLimited++
		activity.RecordHeartbeat(ctx, p)
		if attempts > 0 && p.RateLimited >= RateLimitAttempts {
			return temporal.NewNonRetryableApplicationError("model call rate-limited on "+strconv.Itoa(int(p.RateLimited))+" attempts: "+ae.Error(),
				failure.ErrTypeRateLimited, nil)
		}
		return err
	}
	if attempts > 0 && activity.GetInfo(ctx).Attempt-prior.RateLimited >= attempts {
		return temporal.NewNonRetryableApplicationError("model call failed on every attempt ("+strconv.Itoa(int(attempts))+")",
			failure.ErrTypeProvider, err)
	}
	return err
}
