package value

import (
	"strings"
	"testing"
)

// Export takes a template's value back to Go data; what is not data is
// an error naming where it is.
func TestExport(t *testing.T) {
	v, err := copyIn(map[string]any{"a": []any{int64(1), 2.5, "s", true, nil}, "b": map[string]any{"c": "d"}})
	if err != nil {
		t.Fatal(err)
	}
	x, err := v.Export()
	if err != nil {
		t.Fatal(err)
	}
	m := x.(map[string]any)
	if a := m["a"].([]any); a[0] != int64(1) || a[1] != 2.5 || a[2] != "s" || a[3] != true || a[4] != nil {
		t.Errorf("a = %#v", a)
	}
	if m["b"].(map[string]any)["c"] != "d" {
		t.Errorf("b = %#v", m["b"])
	}
	if _, err := (Value{}).Export(); err == nil {
		t.Errorf("an undefined value exported")
	}
	d := NewDict(1)
	d.Set(FromInt(1), FromString("one"))
	if _, err := FromDict(d).Export(); err == nil || !strings.Contains(err.Error(), "dict key of type int") {
		t.Errorf("int key: %v", err)
	}
	var out struct {
		B struct{ C string } `json:"b"`
	}
	if err := v.Decode(&out); err != nil || out.B.C != "d" {
		t.Errorf("decode: %+v %v", out, err)
	}
}
