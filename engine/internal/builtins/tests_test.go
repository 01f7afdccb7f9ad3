package builtins

import (
	"encoding/json"
	"os"
	"testing"

	"github.com/jinjabox/jinjabox/engine/internal/errs"
	"github.com/jinjabox/jinjabox/engine/value"
)

type goldenTest struct {
	V     json.RawMessage   `json:"v"`
	Test  string            `json:"test"`
	Args  []json.RawMessage `json:"args"`
	Want  *string           `json:"want"`
	Error string            `json:"error"`
	Py    string            `json:"py"`
	Same  bool              `json:"same"` // the argument is the value itself
}

// TestTestsGolden replays every test on a spread of values against real
// Jinja2's results (testdata/gen_tests.py).
func TestTestsGolden(t *testing.T) {
	raw, err := os.ReadFile("testdata/tests_golden.json")
	if err != nil {
		t.Fatal(err)
	}
	var cases []goldenTest
	if err := json.Unmarshal(raw, &cases); err != nil {
		t.Fatal(err)
	}
	for i, gc := range cases {
		v := decode(gc.V)
		args := &value.Args{}
		for _, a := range gc.Args {
			if gc.Same {
				args.Pos = append(args.Pos, v) // the same object, as in Python
				continue
			}
			args.Pos = append(args.Pos, decode(a))
		}
		c := newMCtx(1 << 30)
		f := Tests[gc.Test]
		if f == nil {
			t.Errorf("test %s not registered", gc.Test)
			continue
		}
		var got string
		e := catchErr(func() {
			before := c.meter.Used()
			r := f(c, v, args)
			if c.meter.Used()-before < 256 {
				t.Errorf("test %s charged less than a step", gc.Test)
			}
			got = value.ToString(value.FromBool(r))
		})
		name := value.Repr(v) + " is " + gc.Test + value.Repr(value.NewTuple(args.Pos))
		switch {
		case gc.Want != nil && e != nil:
			t.Errorf("#%d %s: error %v, want %s", i, name, e, *gc.Want)
		case gc.Want != nil && got != *gc.Want:
			t.Errorf("#%d %s: got %s, want %s", i, name, got, *gc.Want)
		case gc.Want == nil && e == nil:
			t.Errorf("#%d %s: got %s, want %s error (%s)", i, name, got, gc.Error, gc.Py)
		case gc.Want == nil && !sameKind(e, gc.Error):
			t.Errorf("#%d %s: error %v, want %s (%s)", i, name, e, gc.Error, gc.Py)
		}
	}
}

func TestTestsUndefined(t *testing.T) {
	c := newMCtx(1 << 20)
	u := value.Undef("x")
	want := map[string]bool{"defined": false, "undefined": true, "none": false, "iterable": true, "sequence": true,
		"callable": true, "string": false, "lower": false, "escaped": false}
	for name, w := range want {
		if got := Tests[name](c, u, nil); got != w {
			t.Errorf("undefined is %s: %v", name, got)
		}
	}
	if e := catchErr(func() { Tests["odd"](c, u, nil) }); e == nil || e.Kind != errs.Undefined {
		t.Errorf("undefined is odd: %v", e)
	}
	j := GlobalFuncs["joiner"].Call(c, nil)
	cy := GlobalFuncs["cycler"].Call(c, &value.Args{Pos: []value.Value{value.FromInt(1)}})
	if !Tests["callable"](c, j, nil) || Tests["callable"](c, cy, nil) || Tests["iterable"](c, cy, nil) {
		t.Error("callable/iterable on joiner and cycler")
	}
}
