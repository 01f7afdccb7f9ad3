package testsuite

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"testing"
	"time"

	"github.com/jinjabox/jinjabox/engine"
	"github.com/jinjabox/jinjabox/internal/casecheck"
)

// cancelDeadline is the RenderOptions.Context deadline each red-team case
// is rendered under in TestRedteamCancelPromptly.
const cancelDeadline = 5 * time.Millisecond

// cancelLatenessBound is how late past its deadline a cancelled render may
// return in the test: far above the 10 ms measured on a quiet machine
// (make redteam-cancel prints every case's lateness), so that a loaded CI
// machine does not flake, and far below the 300-430 ms that red team
// round 3 measured for loops that never reached a poll, so that a loop
// that polls nothing fails it.
const cancelLatenessBound = 150 * time.Millisecond

// TestRedteamCancelPromptly renders every red-team template case with a
// context whose deadline passes mid-render, three times, and requires the
// fastest of the three to return within cancelLatenessBound of the
// deadline: every loop of every builtin reaches a charge (which polls the
// context) within a bounded amount of work. The best of three keeps a
// preempted run on a loaded machine from failing the test; a render that
// does not poll is late every time. JINJABOX_CANCEL_TABLE=1 prints each
// case's lateness (make redteam-cancel).
func TestRedteamCancelPromptly(t *testing.T) {
	if testing.Short() {
		t.Skip("renders every red-team case three times")
	}
	type late struct {
		id string
		d  time.Duration
	}
	var all []late
	for _, rel := range redteamFiles {
		cases, err := casecheck.LoadFile(filepath.Join(corporaDir, filepath.FromSlash(rel)))
		if err != nil {
			t.Fatal(err)
		}
		for i := range cases {
			c := &cases[i]
			if c.Type() != casecheck.TemplateCase {
				continue
			}
			o, ro, err := casecheck.Options(c)
			if err != nil {
				continue
			}
			env, err := engine.NewEnvironment(o)
			if err != nil {
				continue
			}
			best := time.Duration(1 << 62)
			for range 3 {
				data, err := casecheck.DecodeObject(c.Context)
				if err != nil {
					t.Fatalf("%s: %v", c.ID, err)
				}
				start := time.Now()
				ro.Context = &clockDeadline{Context: context.Background(), at: start.Add(cancelDeadline)}
				env.RenderString(c.ID, c.Source(), data, ro)
				lateness := time.Since(start) - cancelDeadline
				best = min(best, max(lateness, 0))
			}
			all = append(all, late{c.ID, best})
			if best > cancelLatenessBound {
				t.Errorf("%s: a render cancelled at %v returned %v after its deadline (at most %v)", c.ID, cancelDeadline, best, cancelLatenessBound)
			}
		}
	}
	sort.Slice(all, func(i, j int) bool { return all[i].d > all[j].d })
	if os.Getenv("JINJABOX_CANCEL_TABLE") != "" {
		for _, l := range all {
			fmt.Printf("%-70s %8.2f ms\n", l.id, float64(l.d.Microseconds())/1000)
		}
	}
	if len(all) > 0 {
		t.Logf("%d cases; the latest returned %v after its deadline (%s)", len(all), all[0].d, all[0].id)
	}
}

// clockDeadline is a context whose Err reads the clock: past its deadline
// it is done at once, with no timer goroutine to wait for (on a loaded
// machine context.WithTimeout's timer fires late, which would be counted
// against the render).
type clockDeadline struct {
	context.Context
	at time.Time
}

func (c *clockDeadline) Err() error {
	if time.Now().After(c.at) {
		return context.DeadlineExceeded
	}
	return nil
}
