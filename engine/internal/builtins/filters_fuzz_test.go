package builtins

import (
	"sort"
	"testing"

	"github.com/jinjabox/jinjabox/engine/internal/errs"
	"github.com/jinjabox/jinjabox/engine/value"
)

// FuzzFilters runs every filter on fuzzed text with a fuzzed integer and
// string argument (and on the text's characters as a list): any failure
// must be an engine error, never a Go panic, within a small budget.
func FuzzFilters(f *testing.F) {
	for _, s := range []string{"", "a b", "<a href='x'>&amp;</a>", "http://x.com (www.y.org).", "a-b--c well-known",
		"Σ ß ǆ İ ﬁ", "\t\n\r\v\f\x1c ", "%s %(a)d %%", "<!--<", "&#x80;&notin;", "1_000", "0x1f", "-2.5e3"} {
		f.Add(s, int64(3), "x")
		f.Add(s, int64(-1), "")
	}
	names := make([]string, 0, len(Filters))
	for n := range Filters {
		names = append(names, n)
	}
	sort.Strings(names)
	f.Fuzz(func(t *testing.T, s string, n int64, arg string) {
		chars := value.NewList(strChars(newCtx(0, false), s, "fuzz"))
		inputs := []value.Value{value.FromString(s), value.Safe(s), chars}
		argSets := [][]value.Value{nil, {num(n)}, {str(arg)}, {num(n), str(arg)}, {str(arg), str(s)}}
		for _, name := range names {
			for _, in := range inputs {
				for _, args := range argSets {
					c := newCtx(1<<20, len(arg)%2 == 1)
					func() {
						defer func() {
							if r := recover(); r != nil {
								if _, ok := r.(*errs.Error); !ok {
									t.Fatalf("%s(%q, %v): Go panic: %v", name, s, args, r)
								}
							}
						}()
						r := Filters[name](c, in, &value.Args{Pos: args})
						_ = value.ToString(r)
						if r.Kind() == value.Object {
							_ = value.Iterate(c, r)
						}
					}()
				}
			}
		}
	})
}
