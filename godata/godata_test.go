package godata

import (
	"encoding/json"
	"errors"
	"net/netip"
	"strings"
	"testing"
	"time"

	"github.com/jinjabox/jinjabox/engine"
	"github.com/jinjabox/jinjabox/engine/value"
)

// copyIn is what the engine makes of x converted: the template's value.
func copyIn(x any) (value.Value, error) {
	c, err := Convert(x)
	if err != nil {
		return value.Value{}, err
	}
	return engine.ToValue(c)
}

type rfBase struct {
	ID      int    `json:"id"`
	Created string `json:"created,omitempty"`
}

type rfHidden struct {
	Promoted string
}

type rfTags struct {
	rfBase
	*rfHidden
	Name string `json:"name"`
	Skip string `json:"-"`
	//lint:ignore SA5008 encoding/json documents "-," as the name "-"
	Dash     string             `json:"-,"`
	Empty    []int              `json:"empty,omitempty"`
	Count    int64              `json:"count,string"`
	Flag     bool               `json:",string"`
	Quoted   string             `json:"quoted,string"`
	Score    float64            `json:"score"`
	Ptr      *string            `json:"ptr"`
	NilPtr   *int               `json:"nil_ptr"`
	Scores   map[string]int     `json:"scores"`
	ByID     map[int]string     `json:"by_id"`
	ByAddr   map[netip.Addr]int `json:"by_addr"`
	Flags    []bool             `json:"flags"`
	Arr      [2]uint16          `json:"arr"`
	When     time.Time          `json:"when"`
	Raw      []byte             `json:"raw"`
	Msg      json.RawMessage    `json:"msg"`
	Addr     netip.Addr         `json:"addr"`
	Rows     []map[string]string
	Iface    any
	internal int
}

type rfConflict struct {
	A1
	A2
}

type A1 struct{ X, Y int }
type A2 struct {
	X int
	Y int `json:"Y"`
}

type rfStatus string

type rfMarshal struct{}

func (m *rfMarshal) MarshalJSON() ([]byte, error) { return []byte(`{"b":1,"a":[true,2.5]}`), nil }

type rfHolder struct {
	M rfMarshal // addressable in an addressable struct: the pointer's method
}

// The reflective copy makes what encoding/json makes of a value: each
// value is copied directly and as json.Marshal's text decoded, and the
// two copies print the same (Repr keeps a dict's order).
func TestCopyReflectIsEncodingJSON(t *testing.T) {
	s := "pointed"
	when := time.Date(2026, 12, 5, 1, 2, 3, 400, time.UTC)
	tags := rfTags{
		rfBase: rfBase{ID: 7}, rfHidden: &rfHidden{Promoted: "up"},
		Name: "n", Skip: "no", Dash: "d", Count: 12, Flag: true, Quoted: `a"b`, Score: 2.5,
		Ptr: &s, Scores: map[string]int{"b": 2, "a": 1, "c": 3}, ByID: map[int]string{10: "ten", 9: "nine", -1: "neg"},
		ByAddr: map[netip.Addr]int{netip.MustParseAddr("10.0.0.2"): 2, netip.MustParseAddr("10.0.0.1"): 1},
		Flags:  []bool{true, false}, Arr: [2]uint16{1, 65535}, When: when, Raw: []byte("hi\x00"),
		Msg: json.RawMessage(`{"z":1,"y":[null]}`), Addr: netip.MustParseAddr("::1"),
		Rows: []map[string]string{{"k": "v"}}, Iface: []rfStatus{"on"}, internal: 3,
	}
	holder := &rfHolder{}
	for _, tc := range []struct {
		name string
		x    any
	}{
		{"tags", tags},
		{"pointer", &tags},
		{"nil-embedded-pointer", rfTags{Score: 0.5, Raw: []byte{}, Flags: []bool{}, Rows: []map[string]string{}, Scores: map[string]int{}, ByID: map[int]string{}, ByAddr: map[netip.Addr]int{}}},
		{"conflict", rfConflict{A1{1, 2}, A2{3, 4}}},
		{"named-slice", []rfStatus{"a", "b"}},
		{"map-float", map[string]float64{"x": 0.5, "y": -1.25}},
		{"int64s", []int64{1, -2}},
		{"marshaler-field", holder},
		{"time", when},
		{"bytes", []byte{0xff, 0}},
		{"map-uint-keys", map[uint8]bool{2: true, 10: false}},
	} {
		got, err := copyIn(tc.x)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		b, err := json.Marshal(tc.x)
		if err != nil {
			t.Fatalf("%s: json: %v", tc.name, err)
		}
		dec, err := value.DecodeJSON(b)
		if err != nil {
			t.Fatal(err)
		}
		want, err := engine.ToValue(dec)
		if err != nil {
			t.Fatal(err)
		}
		if value.Repr(got) != value.Repr(want) {
			t.Errorf("%s:\n got %s\nwant %s (json %s)", tc.name, value.Repr(got), value.Repr(want), b)
		}
	}
}

// What encoding/json writes as null is an empty container here when it
// is a nil slice or map (copyreflect.go says why), and none when a nil
// pointer.
func TestCopyReflectNilContainers(t *testing.T) {
	type s struct {
		L []int
		M map[string]bool
		P *int
	}
	v, err := copyIn(s{})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := value.Repr(v), "{'L': [], 'M': {}, 'P': None}"; got != want {
		t.Errorf("got %s, want %s", got, want)
	}
}

// Refusals name the path and the Go type.
func TestCopyReflectRefusals(t *testing.T) {
	type withFunc struct {
		Items []struct{ F func() }
	}
	type withChan struct{ C map[string]chan int }
	type badKey struct{ M map[[2]int]int }
	type self struct {
		Next *self
	}
	loop := &self{}
	loop.Next = loop
	for _, tc := range []struct {
		name string
		x    any
		want string
	}{
		{"func", map[string]any{"d": withFunc{Items: []struct{ F func() }{{}, {}}}},
			"cannot copy data at d.Items[0].F: values of Go type func() are not data"},
		{"chan", map[string]any{"d": withChan{C: map[string]chan int{"x": nil}}},
			"cannot copy data at d.C.x: values of Go type chan int are not data"},
		{"key", map[string]any{"d": badKey{M: map[[2]int]int{{1, 2}: 3}}},
			"cannot copy data at d.M: map keys of Go type [2]int are not strings, integers or encoding.TextMarshalers (Go type map[[2]int]int)"},
		{"cycle", map[string]any{"d": loop}, "cannot copy data at d.Next.Next.Next"},
		{"uint", map[string]any{"d": struct{ U uint64 }{1 << 63}}, "cannot copy data at d.U: integer wider than 64 bits"},
		{"complex", map[string]any{"d": []complex64{1}}, "cannot copy data at d[0]: values of Go type complex64 are not data"},
	} {
		_, err := Map(tc.x)
		var e *engine.Error
		if !errors.As(err, &e) || e.Kind != engine.KindType || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: err = %v, want a type error containing %q", tc.name, err, tc.want)
		}
	}
}

// The reflective copy counts under the same ceilings: a typed slice of
// more entries, or a struct of more string bytes, is refused as the
// map[string]any of the same shape is.
func TestCopyReflectCeilings(t *testing.T) {
	if _, err := Convert(map[string]any{"b": make([]bool, value.MaxContainerEntries+1)}); err == nil ||
		!strings.Contains(err.Error(), "cannot copy data at b: container has more than 100000 entries") {
		t.Errorf("entries: %v", err)
	}
	type big struct{ A, B string }
	half := strings.Repeat("x", value.MaxGraphBytes/2)
	_, err := Convert(map[string]any{"s": big{half, half + "y"}})
	if err == nil || !strings.Contains(err.Error(), "copying the data at s.B would pass the copy-in ceiling") {
		t.Errorf("bytes: %v", err)
	}
	// a marshaler's text longer than what is left
	_, err = Convert(map[string]any{"a": half, "m": json.RawMessage(`"` + half + `yy"`)})
	if err == nil || !strings.Contains(err.Error(), "copy-in ceiling") {
		t.Errorf("marshaler bytes: %v", err)
	}
}

// Export and Decode take the value back: what the engine made of a
// converted struct decodes to an equal struct.
func TestDecodeRoundTrip(t *testing.T) {
	type item struct {
		Name  string         `json:"name"`
		Tags  []string       `json:"tags"`
		Score float64        `json:"score"`
		N     int64          `json:"n"`
		M     map[string]int `json:"m"`
		On    bool           `json:"on"`
		Next  *item          `json:"next,omitempty"`
	}
	in := item{Name: "a", Tags: []string{"x"}, Score: 1.5, N: -3, M: map[string]int{"k": 1}, On: true, Next: &item{Name: "b", Tags: []string{}, M: map[string]int{}}}
	v, err := copyIn(in)
	if err != nil {
		t.Fatal(err)
	}
	var out item
	if err := v.Decode(&out); err != nil {
		t.Fatal(err)
	}
	back, err := copyIn(out)
	if err != nil {
		t.Fatal(err)
	}
	if a, b := value.Repr(v), value.Repr(back); a != b {
		t.Errorf("round trip: %s != %s", a, b)
	}
}

// Map takes an object only.
func TestMapNeedsAnObject(t *testing.T) {
	if m, err := Map(nil); err != nil || len(m) != 0 {
		t.Errorf("nil: %v %v", m, err)
	}
	if _, err := Map([]int{1}); err == nil || !strings.Contains(err.Error(), "not Go type []int") {
		t.Errorf("slice: %v", err)
	}
	m, err := Map(&struct{ A int }{1})
	if err != nil || m["A"] != int64(1) {
		t.Errorf("struct: %v %v", m, err)
	}
}
