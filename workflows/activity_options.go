package workflows

import (
	"errors"
	"time"

	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"

	"github.com/jinjabox/jinjabox/activities"
	"github.com/jinjabox/jinjabox/failure"
)

// Liveness defaults of a run's activities (RunOptions overrides each).
// Every activity attempt is bounded, every call's attempts are bounded in
// number and in total time, and a worker that dies is noticed within a
// heartbeat timeout, not a start-to-close timeout: with the provider
// down a run ends with a typed ProviderError, never retries forever.
const (
	// DefaultActivityTimeout bounds one attempt (StartToClose): one model
	// call, which is the longest thing an activity does.
	DefaultActivityTimeout = 2 * time.Minute
	// DefaultHeartbeatTimeout is how long an attempt may go without a
	// heartbeat (activities heartbeat every third of it while they wait);
	// an attempt on a worker that was killed is retried after it.
	DefaultHeartbeatTimeout = 30 * time.Second
	// DefaultScheduleToCloseTimeout bounds one call, all attempts and
	// backoffs included.
	DefaultScheduleToCloseTimeout = 10 * time.Minute
	// DefaultMaxAttempts bounds the attempts of one call (Temporal's own
	// default, 0, is unlimited).
	DefaultMaxAttempts = 5
	// Retry backoff: 1 s, doubling, at most a minute.
	retryInitialInterval = time.Second
	retryBackoff         = 2.0
	retryMaximumInterval = time.Minute
)

// activityContext sets the activity options of a run: every activity a
// pipe workflow starts (model calls, renders, validation) runs under
// them. A zero field of o is the default; MaxAttempts < 0 is unlimited.
// Failures that are the same on every attempt (template errors, an
// invalid method, a provider's refusal) are never retried.
func activityContext(ctx workflow.Context, o RunOptions) workflow.Context {
	return workflow.WithActivityOptions(ctx, workflow.ActivityOptions{
		StartToCloseTimeout:    orDefault(o.ActivityTimeout, DefaultActivityTimeout),
		HeartbeatTimeout:       orDefault(o.HeartbeatTimeout, DefaultHeartbeatTimeout),
		ScheduleToCloseTimeout: orDefault(o.ScheduleToCloseTimeout, DefaultScheduleToCloseTimeout),
		RetryPolicy:            retryPolicy(maxAttempts(o)),
	})
}

// maxAttempts is the attempt bound of o's activities (0: unlimited).
func maxAttempts(o RunOptions) int32 {
	switch {
	case o.MaxAttempts == 0:
		return DefaultMaxAttempts
	case o.MaxAttempts < 0:
		return 0 // Temporal's unlimited
	}
	return int32(o.MaxAttempts)
}

func retryPolicy(attempts int32) *temporal.RetryPolicy {
	return &temporal.RetryPolicy{
		InitialInterval:    retryInitialInterval,
		BackoffCoefficient: retryBackoff,
		MaximumInterval:    retryMaximumInterval,
		MaximumAttempts:    attempts,
		NonRetryableErrorTypes: []string{failure.ErrTypeSyntax, failure.ErrTypeSecurity, failure.ErrTypeBudget,
			failure.ErrTypeUndefined, failure.ErrTypeRender, failure.ErrTypeInvalidMethod, failure.ErrTypeProvider,
			failure.ErrTypeLimit, failure.ErrTypeTruncated, failure.ErrTypeRefused},
	}
}

// modelCallContext is actx (a run's activityContext) for a model call:
// its attempts are MaxAttempts for failures and, apart from them,
// activities.RateLimitAttempts for rate limits (HTTP 429), which the
// provider asks to wait out (Retry-After, the next retry's delay) and
// which say nothing about the call. Temporal's policy has one count, so
// it allows the sum, the workflow passes MaxAttempts in the activity's
// input (activities.ModelCall), and the CompleteText activity keeps the
// two budgets apart, failing for good when either is spent.
// ProviderRateLimited is therefore not among the non-retryable types.
func modelCallContext(actx workflow.Context, o RunOptions) workflow.Context {
	return workflow.WithRetryPolicy(actx, *retryPolicy(activities.ModelCallAttempts(maxAttempts(o))))
}

func orDefault(d, def time.Duration) time.Duration {
	if d > 0 {
		return d
	}
	return def
}

// finalModelTypes are the model call failures that are final as they
// are: the activity's own typed failures.
var finalModelTypes = map[string]bool{failure.ErrTypeProvider: true, failure.ErrTypeTruncated: true, failure.ErrTypeRefused: true}

// modelCallFailure types a model call that failed for good: the
// activity's retries ran out (its attempts, or its schedule-to-close
// timeout) or its failure was final. It becomes a final ProviderError
// whose message says why and whose cause is the last attempt's failure,
// or a final ProviderRateLimited when that failure was a rate limit. The
// activity's own final failures (ProviderError, ProviderTruncated,
// ProviderRefused, a ProviderRateLimited whose budget is spent) and a
// cancellation pass through.
func modelCallFailure(err error) error {
	var ae *temporal.ActivityError
	if !errors.As(err, &ae) {
		return err
	}
	var app *temporal.ApplicationError
	if errors.As(err, &app) && (finalModelTypes[app.Type()] || app.Type() == failure.ErrTypeRateLimited && app.NonRetryable()) {
		return err
	}
	var canceled *temporal.CanceledError
	if errors.As(err, &canceled) {
		return err
	}
	why := "model call failed"
	switch ae.RetryState() {
	case enumspb.RETRY_STATE_MAXIMUM_ATTEMPTS_REACHED:
		why = "model call failed on every attempt"
	case enumspb.RETRY_STATE_TIMEOUT:
		why = "model call timed out"
	}
	typ := failure.ErrTypeProvider
	if app != nil && app.Type() == failure.ErrTypeRateLimited {
		// the call ran out of time or attempts waiting out a rate limit
		typ = failure.ErrTypeRateLimited
	}
	// the last attempt's failure stays the cause (Error() appends it)
	return temporal.NewNonRetryableApplicationError(why, typ, ae.Unwrap())
}
