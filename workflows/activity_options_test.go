package workflows_test

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/converter"
	"go.temporal.io/sdk/temporal"
	temporaltest "go.temporal.io/sdk/testsuite"

	"github.com/jinjabox/jinjabox/activities"
	"github.com/jinjabox/jinjabox/failure"
	"github.com/jinjabox/jinjabox/method"
	"github.com/jinjabox/jinjabox/workflows"
)

// twoCalls is a sequence of two model calls.
const twoCalls = `{"main_pipe":"main","pipes":{
 "main":{"type":"PipeSequence","inputs":{"q":"Text"},"output":"Text","steps":[{"pipe":"ask","result":"a"},{"pipe":"again","result":"b"}]},
 "ask":{"type":"PipeLLM","inputs":{"q":"Text"},"output":"Text","prompt":"Question $q"},
 "again":{"type":"PipeLLM","inputs":{"a":"Text"},"output":"Text","prompt":"Again $a"}}}`

// scriptedProvider answers through fail (nil: the local provider's
// answer) and records every call: its prompt, attempt, idempotency key
// and the activity's timeouts.
type scriptedProvider struct {
	fail  func(call providerCall) error
	hold  time.Duration
	mu    sync.Mutex
	calls []providerCall
}

type providerCall struct {
	prompt          string
	attempt         int32
	key             string
	heartbeat       time.Duration
	startToClose    time.Duration
	scheduleToClose time.Duration
}

func (p *scriptedProvider) CompleteText(ctx context.Context, req method.CompletionRequest) (method.CompletionResponse, error) {
	info := activity.GetInfo(ctx)
	c := providerCall{prompt: req.Prompt, attempt: info.Attempt, key: activities.IdempotencyKey(ctx),
		heartbeat: info.HeartbeatTimeout, startToClose: info.StartToCloseTimeout, scheduleToClose: info.ScheduleToCloseTimeout}
	p.mu.Lock()
	p.calls = append(p.calls, c)
	p.mu.Unlock()
	if p.hold > 0 {
		select {
		case <-time.After(p.hold):
		case <-ctx.Done():
			return method.CompletionResponse{}, ctx.Err()
		}
	}
	if p.fail != nil {
		if err := p.fail(c); err != nil {
			return method.CompletionResponse{}, err
		}
	}
	return method.LocalProvider{}.CompleteText(ctx, req)
}

func providerEnv(t *testing.T, p method.Provider) *temporaltest.TestWorkflowEnvironment {
	t.Helper()
	var s temporaltest.WorkflowTestSuite
	s.SetLogger(quietLogger())
	env := s.NewTestWorkflowEnvironment()
	(&workflows.Workflows{}).Register(env)
	activities.Register(env, &activities.Activities{Provider: p})
	return env
}

func runTwoCalls(env *temporaltest.TestWorkflowEnvironment, o workflows.RunOptions) {
	env.ExecuteWorkflow(workflows.WorkflowRunMethod, workflows.RunMethodInput{
		Method: []byte(twoCalls), Inputs: []byte(`{"q":"why"}`), Options: o})
}

// Every model call runs under the liveness defaults, carries an
// idempotency key that is the same on every attempt of the call and
// differs between calls; a transient failure is retried.
func TestActivityDefaultsAndIdempotencyKeys(t *testing.T) {
	p := &scriptedProvider{fail: func(c providerCall) error {
		if c.attempt == 1 {
			return errors.New("connection reset") // transient: retried
		}
		return nil
	}}
	env := providerEnv(t, p)
	runTwoCalls(env, workflows.RunOptions{})
	if err := env.GetWorkflowError(); err != nil {
		t.Fatal(err)
	}
	if len(p.calls) != 4 {
		t.Fatalf("%d provider calls, want 4 (two calls, each retried once): %+v", len(p.calls), p.calls)
	}
	hex32 := regexp.MustCompile(`^[0-9a-f]{32}$`)
	keys := map[string][]int32{}
	for _, c := range p.calls {
		if c.heartbeat != workflows.DefaultHeartbeatTimeout || c.startToClose != workflows.DefaultActivityTimeout ||
			c.scheduleToClose != workflows.DefaultScheduleToCloseTimeout {
			t.Errorf("call %+v: want the default timeouts", c)
		}
		if !hex32.MatchString(c.key) {
			t.Errorf("idempotency key %q: want 32 hex digits", c.key)
		}
		keys[c.key] = append(keys[c.key], c.attempt)
	}
	if len(keys) != 2 {
		t.Fatalf("keys %v: want one per call, the same on both attempts", keys)
	}
	for k, attempts := range keys {
		if len(attempts) != 2 || attempts[0] != 1 || attempts[1] != 2 {
			t.Errorf("key %s seen on attempts %v, want [1 2]", k, attempts)
		}
	}
}

// With the provider down, a call is tried MaxAttempts times (default 5)
// and the run fails with a final ProviderError, not forever.
func TestProviderDownIsAProviderError(t *testing.T) {
	for _, tc := range []struct {
		name     string
		opts     workflows.RunOptions
		attempts int
	}{
		{"default", workflows.RunOptions{}, workflows.DefaultMaxAttempts},
		{"max_attempts 2", workflows.RunOptions{MaxAttempts: 2}, 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := &scriptedProvider{fail: func(providerCall) error { return errors.New("dial tcp: connection refused") }}
			env := providerEnv(t, p)
			runTwoCalls(env, tc.opts)
			err := env.GetWorkflowError()
			ae := providerError(err)
			if ae == nil || ae.NonRetryable() != true {
				t.Fatalf("want a final ProviderError, got %v", err)
			}
			if len(p.calls) != tc.attempts {
				t.Fatalf("%d attempts, want %d", len(p.calls), tc.attempts)
			}
		})
	}
}

// A call whose attempts outlast the schedule-to-close timeout fails with
// a ProviderError too.
func TestProviderTimeoutIsAProviderError(t *testing.T) {
	p := &scriptedProvider{fail: func(providerCall) error { return errors.New("HTTP 503") }}
	env := providerEnv(t, p)
	runTwoCalls(env, workflows.RunOptions{MaxAttempts: -1, ScheduleToCloseTimeout: 5 * time.Second})
	err := env.GetWorkflowError()
	if providerError(err) == nil {
		t.Fatalf("want a ProviderError, got %v", err)
	}
	// backoff 1 s, 2 s: attempts at 0, 1 and 3 s fit in 5 s, the next
	// (at 7 s) does not
	if len(p.calls) < 2 || len(p.calls) > 4 {
		t.Fatalf("%d attempts in a 5 s schedule-to-close", len(p.calls))
	}
}

// CompleteText heartbeats while the provider holds the call.
func TestCompleteTextHeartbeats(t *testing.T) {
	// a call three heartbeat timeouts long, not a tight one: at load 5-6
	// a 200 ms timeout over 700 ms calls timed out (a tick every third of
	// the timeout must be late by two of them to fail now)
	p := &scriptedProvider{hold: 1800 * time.Millisecond}
	env := providerEnv(t, p)
	var mu sync.Mutex
	beats := 0
	env.SetOnActivityHeartbeatListener(func(info *activity.Info, _ converter.EncodedValues) {
		mu.Lock()
		beats++
		mu.Unlock()
	})
	runTwoCalls(env, workflows.RunOptions{HeartbeatTimeout: 600 * time.Millisecond})
	if err := env.GetWorkflowError(); err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	defer mu.Unlock()
	if beats < 2 {
		t.Fatalf("%d heartbeats over two 1.8 s calls with a 600 ms heartbeat timeout", beats)
	}
}

// providerError is the ProviderError in err's chain (nil: none). The
// chain is walked link by link: errors.As stops at the first
// application error, which may be a wrapper.
func providerError(err error) *temporal.ApplicationError {
	for e := err; e != nil; e = errors.Unwrap(e) {
		if ae, ok := e.(*temporal.ApplicationError); ok && ae.Type() == failure.ErrTypeProvider {
			return ae
		}
	}
	return nil
}

// errorOfType is the application error of type typ in err's chain (nil:
// none).
func errorOfType(err error, typ string) *temporal.ApplicationError {
	for e := err; e != nil; e = errors.Unwrap(e) {
		if ae, ok := e.(*temporal.ApplicationError); ok && ae.Type() == typ {
			return ae
		}
	}
	return nil
}

// rateLimited is a provider's 429 asking to come back after d.
func rateLimited(d time.Duration) error {
	return temporal.NewApplicationErrorWithOptions("HTTP 429", failure.ErrTypeRateLimited, temporal.ApplicationErrorOptions{NextRetryDelay: d})
}

// Rate limits have an attempt budget of their own and are retried after
// the delay the provider asks for: seven 429s (more than the five
// attempts of other failures) are waited out, 7 s each, and the call
// succeeds on its eighth attempt.
func TestRateLimitsHaveTheirOwnBudget(t *testing.T) {
	p := &scriptedProvider{fail: func(c providerCall) error {
		if strings.HasPrefix(c.prompt, "Question") && c.attempt <= 7 {
			return rateLimited(7 * time.Second)
		}
		return nil
	}}
	env := providerEnv(t, p)
	start := env.Now()
	runTwoCalls(env, workflows.RunOptions{})
	if err := env.GetWorkflowError(); err != nil {
		t.Fatal(err)
	}
	if len(p.calls) != 9 {
		t.Fatalf("%d provider calls, want 9 (8 attempts, then 1)", len(p.calls))
	}
	if waited := env.Now().Sub(start); waited < 49*time.Second || waited > 2*time.Minute {
		t.Fatalf("the run took %v, want 7 Retry-After delays of 7 s (49 s)", waited)
	}
}

// A call rate-limited on every one of its RateLimitAttempts attempts
// fails for good with ProviderRateLimited; failures of other kinds
// still fail a call after MaxAttempts of them, rate limits in between
// not counted.
func TestRateLimitBudgetSpent(t *testing.T) {
	t.Run("rate limits", func(t *testing.T) {
		p := &scriptedProvider{fail: func(providerCall) error { return rateLimited(time.Second) }}
		env := providerEnv(t, p)
		runTwoCalls(env, workflows.RunOptions{})
		err := env.GetWorkflowError()
		if ae := errorOfType(err, failure.ErrTypeRateLimited); ae == nil || !ae.NonRetryable() {
			t.Fatalf("want a final ProviderRateLimited, got %v", err)
		}
		if len(p.calls) != activities.RateLimitAttempts {
			t.Fatalf("%d attempts, want %d", len(p.calls), activities.RateLimitAttempts)
		}
	})
	t.Run("mixed", func(t *testing.T) {
		p := &scriptedProvider{fail: func(c providerCall) error {
			if c.attempt%2 == 1 {
				return rateLimited(time.Second)
			}
			return errors.New("HTTP 503")
		}}
		env := providerEnv(t, p)
		runTwoCalls(env, workflows.RunOptions{MaxAttempts: 2})
		err := env.GetWorkflowError()
		if ae := providerError(err); ae == nil || !ae.NonRetryable() {
			t.Fatalf("want a final ProviderError, got %v", err)
		}
		// 429, 503, 429, 503: the second 503 spends the two attempts
		if len(p.calls) != 4 {
			t.Fatalf("%d attempts, want 4", len(p.calls))
		}
	})
	t.Run("a delay past the schedule-to-close", func(t *testing.T) {
		p := &scriptedProvider{fail: func(providerCall) error { return rateLimited(time.Hour) }}
		env := providerEnv(t, p)
		runTwoCalls(env, workflows.RunOptions{})
		err := env.GetWorkflowError()
		if ae := errorOfType(err, failure.ErrTypeRateLimited); ae == nil || !ae.NonRetryable() {
			t.Fatalf("want a final ProviderRateLimited, got %v", err)
		}
		if len(p.calls) != 1 {
			t.Fatalf("%d attempts, want 1", len(p.calls))
		}
	})
}

// A truncated or refused answer is final and keeps its type to the run's
// failure.
func TestTruncatedAndRefusedAreFinal(t *testing.T) {
	for _, typ := range []string{failure.ErrTypeTruncated, failure.ErrTypeRefused} {
		p := &scriptedProvider{fail: func(providerCall) error {
			return temporal.NewNonRetryableApplicationError("provider: no", typ, nil)
		}}
		env := providerEnv(t, p)
		runTwoCalls(env, workflows.RunOptions{})
		err := env.GetWorkflowError()
		if ae := errorOfType(err, typ); ae == nil {
			t.Fatalf("%s: got %v", typ, err)
		}
		if len(p.calls) != 1 {
			t.Fatalf("%s: %d attempts, want 1", typ, len(p.calls))
		}
	}
}

// End to end: OpenAIProvider against a local server that rate-limits the
// first two requests with Retry-After: 7. The run waits 7 s twice (not
// the policy's 1 s and 2 s) and succeeds, every request with the call's
// idempotency key.
func TestOpenAIRateLimitRetriedAfterRetryAfter(t *testing.T) {
	var mu sync.Mutex
	var keys []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		keys = append(keys, r.Header.Get(activities.IdempotencyHeader))
		n := len(keys)
		mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		if n <= 2 {
			w.Header().Set("Retry-After", "7")
			w.WriteHeader(http.StatusTooManyRequests)
			_, _ = io.WriteString(w, `{"error":{"message":"slow down","code":"rate_limit_exceeded"}}`)
			return
		}
		_, _ = io.WriteString(w, `{"choices":[{"index":0,"finish_reason":"stop","message":{"role":"assistant","content":"fine"}}]}`)
	}))
	defer srv.Close()
	env := providerEnv(t, &activities.OpenAIProvider{BaseURL: srv.URL + "/v1", Model: "m"})
	start := env.Now()
	env.ExecuteWorkflow(workflows.WorkflowRunMethod, workflows.RunMethodInput{
		Method: []byte(`{"main_pipe":"ask","pipes":{"ask":{"type":"PipeLLM","inputs":{"q":"Text"},"output":"Text","prompt":"$q"}}}`),
		Inputs: []byte(`{"q":"hi"}`)})
	if err := env.GetWorkflowError(); err != nil {
		t.Fatal(err)
	}
	if waited := env.Now().Sub(start); waited < 14*time.Second || waited > 20*time.Second {
		t.Fatalf("the run took %v, want two Retry-After delays of 7 s", waited)
	}
	if len(keys) != 3 || keys[0] == "" || keys[1] != keys[0] || keys[2] != keys[0] {
		t.Fatalf("idempotency keys %q: want 3 requests with one key", keys)
	}
}
