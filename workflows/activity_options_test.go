package workflows_test

import (
	"context"
	"errors"
	"regexp"
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
	p := &scriptedProvider{hold: 700 * time.Millisecond}
	env := providerEnv(t, p)
	var mu sync.Mutex
	beats := 0
	env.SetOnActivityHeartbeatListener(func(info *activity.Info, _ converter.EncodedValues) {
		mu.Lock()
		beats++
		mu.Unlock()
	})
	runTwoCalls(env, workflows.RunOptions{HeartbeatTimeout: 200 * time.Millisecond})
	if err := env.GetWorkflowError(); err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	defer mu.Unlock()
	if beats < 2 {
		t.Fatalf("%d heartbeats over two 700 ms calls with a 200 ms heartbeat timeout", beats)
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
