package methodfile

import (
	"regexp"
	"strconv"

	"github.com/jinjabox/jinjabox/engine/value"
)

// plainOf turns ordered maps into slices of [key, value] pairs, so JSON
// comparisons keep the order.
func plainOf(x any) any {
	switch t := x.(type) {
	case *value.OrderedMap:
		out := make([]any, 0, len(t.Keys))
		for i, k := range t.Keys {
			out = append(out, []any{k, plainOf(t.Values[i])})
		}
		return out
	case []any:
		out := make([]any, len(t))
		for i, e := range t {
			out[i] = plainOf(e)
		}
		return out
	}
	return x
}

func matches(re, s string) bool { return regexp.MustCompile(re).MatchString(s) }

func itoa(n int) string { return strconv.Itoa(n) }
