package builtins

import "github.com/jinjabox/jinjabox/engine/value"

// Charged scans. Counting a string's code points reads every byte, so it
// is charged a unit a byte, the cost model's read, before it runs: an
// uncharged count let a loop of s|length (or |count, |center(1),
// |truncate(1e8)) over a 60 MB string run for seconds within budget
// (red team H2; the calibration measured 100 ns a unit charged).

// strLen is len(s) in code points, the scan charged to op.
func strLen(c value.Ctx, s string, op string) int64 {
	c.Charge(int64(len(s)), op)
	return int64(value.RuneLen(s))
}

// pyLen is Python's len(v), a string's scan charged to op.
func pyLen(c value.Ctx, v value.Value, op string) (int, bool) {
	if v.IsString() {
		c.Charge(int64(len(v.Str())), op)
	}
	return value.Length(v)
}
