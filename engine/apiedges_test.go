package engine

import (
	"errors"
	"strconv"
	"strings"
	"testing"

	"github.com/jinjabox/jinjabox/engine/value"
)

// TestCopyInCeilingsOnEveryPath holds the copy-in ceilings on the paths
// red team round 3 found open: a top-level mapping of more than
// MaxContainerEntries names is refused by a render and by Prepare, as any
// container is, and so is a WithPath that would add one more; key bytes a
// WithPath adds count toward MaxGraphBytes even when the values hold no
// string; WithPath on the nil context starts from the empty one.
func TestCopyInCeilingsOnEveryPath(t *testing.T) {
	env, _ := NewEnvironment(Options{})
	atMost := map[string]any{}
	for i := 0; i < value.MaxContainerEntries; i++ {
		atMost["k"+strconv.Itoa(i)] = 1
	}
	if res, err := env.RenderString("t", "{{ k5 }}", atMost, RenderOptions{}); err != nil || res.Output != "1" {
		t.Fatalf("%d top-level names: %q, %v", len(atMost), res.Output, err)
	}
	ctx, err := env.Prepare(atMost)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ctx.WithPath([]string{"one_more"}, 1); !isKind(err, KindType) {
		t.Errorf("WithPath past %d top-level names: want a type error, got %v", value.MaxContainerEntries, err)
	}
	if _, err := ctx.WithPath([]string{"k7"}, 2); err != nil {
		t.Errorf("WithPath replacing a name of a full mapping: %v", err)
	}
	over := map[string]any{"extra": 1}
	for k, v := range atMost {
		over[k] = v
	}
	if _, err := env.RenderString("t", "{{ k5 }}", over, RenderOptions{}); !isKind(err, KindType) {
		t.Errorf("render of %d top-level names: want a type error, got %v", len(over), err)
	}
	if _, err := env.Prepare(over); !isKind(err, KindType) {
		t.Errorf("Prepare of %d top-level names: want a type error, got %v", len(over), err)
	}

	var c *Prepared // the nil context is the empty one
	key := strings.Repeat("k", 1<<20)
	added := 0
	for i := 0; i < 80; i++ {
		next, err := c.WithPath([]string{key + strconv.Itoa(i)}, i)
		if err != nil {
			if !isKind(err, KindBudget) {
				t.Fatalf("WithPath key bytes: want a budget error, got %v", err)
			}
			break
		}
		c = next
		added++
	}
	if added == 80 || added < 60 {
		t.Errorf("WithPath added %d keys of 1 MiB: want the 64 MiB ceiling to refuse the 64th or so", added)
	}
	res, err := env.Parse("t", "{{ 3 in [1, 2, 3] }}")
	if err != nil {
		t.Fatal(err)
	}
	var sb strings.Builder
	if _, err := res.RenderTo(&sb, c, RenderOptions{}); err != nil || sb.String() != "True" {
		t.Errorf("render from the path-built context: %q, %v", sb.String(), err)
	}
}

func isKind(err error, k ErrorKind) bool {
	var e *Error
	return errors.As(err, &e) && e.Kind == k
}

// TestFormatPrivateFieldMessage: a private segment of a format field is
// refused before its receiver is resolved, and the message says so rather
// than naming an "undefined" receiver it never looked at (issue 29).
func TestFormatPrivateFieldMessage(t *testing.T) {
	env, err := NewEnvironment(Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, src := range []string{`{{ '{0.__class__}'.format('') }}`, `{{ '{x.a._b}'.format(x={'a': 1}) }}`} {
		_, err := env.RenderString("t", src, nil, RenderOptions{})
		var e *Error
		if !errors.As(err, &e) || e.Kind != KindSecurity || strings.Contains(e.Message, "undefined") || !strings.Contains(e.Message, "format field") {
			t.Errorf("%s: %v", src, err)
		}
	}
}
