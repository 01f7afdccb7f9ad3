package value

import (
	"math"
	"strconv"
	"testing"
)

// TestNumCompareExact: an int and a float compare exactly at the edges
// of float precision and of the int64 range.
func TestNumCompareExact(t *testing.T) {
	for _, c := range []struct {
		i    int64
		f    float64
		want int
	}{
		{1<<53 + 1, 1 << 53, 1},
		{1 << 53, 1 << 53, 0},
		{math.MaxInt64, math.Exp2(63), -1},
		{math.MinInt64, -math.Exp2(63), 0},
		{math.MinInt64, math.Nextafter(-math.Exp2(63), math.Inf(-1)), 1},
		{2, 2.5, -1},
		{-2, -2.5, 1},
		{0, math.NaN(), 2},
		{0, math.Inf(-1), 1},
	} {
		i, f := FromInt(c.i), FromFloat(c.f)
		if got := numCompare(&i, &f); got != c.want {
			t.Errorf("%d vs %s: %d, want %d", c.i, strconv.FormatFloat(c.f, 'g', -1, 64), got, c.want)
		}
		if c.want != 2 {
			if got := numCompare(&f, &i); got != -c.want {
				t.Errorf("%s vs %d: %d, want %d", strconv.FormatFloat(c.f, 'g', -1, 64), c.i, got, -c.want)
			}
		}
	}
}
