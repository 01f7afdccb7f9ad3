package engine

import (
	"errors"
	"strings"
	"testing"

	"github.com/jinjabox/jinjabox/engine/value"
)

// TestCopyInByteCeiling: the strings of one data graph (values and keys)
// hold at most value.MaxGraphBytes bytes, the copy-in limit data_bytes,
// checked before each string enters the model: a 200 MB string took
// 1 GB before it was refused (red team M5). The refusal is a budget
// error naming the limit and the amounts, never the data, and a render
// gives no output; a prepared context counts across its updates, the
// value an update replaces taken out.
func TestCopyInByteCeiling(t *testing.T) {
	env, _ := NewEnvironment(Options{})
	half := strings.Repeat("h", value.MaxGraphBytes/2)
	over := strings.Repeat("o", value.MaxGraphBytes+1)
	isBudget := func(t *testing.T, err error, where string) {
		t.Helper()
		var e *Error
		if !errors.As(err, &e) || e.Kind != KindBudget || !strings.Contains(e.Message, value.LimitDataBytes) || !strings.Contains(e.Message, where) {
			t.Fatalf("want a budget error naming %s at %s, got %v", value.LimitDataBytes, where, err)
		}
		if strings.Contains(e.Message, "hhhh") || strings.Contains(e.Message, "oooo") {
			t.Fatalf("the refusal shows the data: %.200s", e.Message)
		}
	}
	for name, data := range map[string]map[string]any{
		"one string":      {"s": over},
		"nested string":   {"d": map[string]any{"k": []any{over}}},
		"strings summed":  {"a": half, "b": half, "c": "x"},
		"keys":            {"d": map[string]any{half: 1, half + "2": 2}},
		"typed list":      {"l": []string{half, half, "x"}},
		"string map":      {"m": map[string]string{"a": half, "b": half}},
		"ordered in JSON": {"o": mustJSON(t, `{"a": "`+half+`", "b": "`+half+`"}`)},
	} {
		t.Run(name, func(t *testing.T) {
			// the names read, in a branch never taken: a render copies in
			// the names its template reads (TestUnreadNamesAreNotCopied)
			res, err := env.RenderString("t", "{{ 1 }}{% if false %}{{ s }}{{ d }}{{ a }}{{ b }}{{ c }}{{ l }}{{ m }}{{ o }}{% endif %}", data, RenderOptions{})
			if res.Output != "" {
				t.Fatalf("output %q on a refused copy", res.Output)
			}
			isBudget(t, err, "")
			if _, err := env.Prepare(data); err == nil {
				t.Fatal("Prepare took what a render refuses")
			}
		})
	}
	// At the ceiling exactly, the data is taken.
	exact := map[string]any{"s": strings.Repeat("e", value.MaxGraphBytes-1)}
	if res, err := env.RenderString("t", "{{ s|length }}", exact, RenderOptions{}); err != nil || res.Output != "67108863" {
		t.Fatalf("data at the ceiling: %q, %v", res.Output, err)
	}
	// A context counts across updates: adding past the ceiling is refused,
	// replacing a value takes its bytes out.
	ctx, err := env.Prepare(map[string]any{"a": half, "d": map[string]any{}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ctx.WithPath([]string{"d", "more"}, half+half); err == nil {
		t.Fatal("an update past the ceiling was taken")
	} else {
		isBudget(t, err, "d.more")
	}
	if _, err := ctx.WithPath([]string{"a"}, half+strings.Repeat("x", value.MaxGraphBytes/4)); err != nil {
		t.Fatalf("replacing a value: its bytes were not taken out: %v", err)
	}
}

func mustJSON(t *testing.T, s string) any {
	t.Helper()
	v, err := value.DecodeJSON([]byte(s))
	if err != nil {
		t.Fatal(err)
	}
	return v
}
