package policy

import (
	"strings"
	"testing"
)

func TestLookup(t *testing.T) {
	cases := []struct {
		r    Receiver
		name string
		want Status
	}{
		{Str, "upper", Allowed},
		{Str, "format", Allowed},
		{Str, "format_map", Allowed},
		{Str, "encode", Refused},
		{Str, "striptags", NotFound},
		{Markup, "striptags", Allowed},
		{Markup, "unescape", Allowed},
		{Markup, "upper", Allowed},
		{Markup, "encode", Refused},
		{Str, "mro", NotFound},
		{Str, "constructor", NotFound},
		{Str, "toString", NotFound},
		{Str, "length", NotFound},
		{Str, "String", NotFound},
		{Str, "__class__", NotFound},
		{Dict, "items", Allowed},
		{Dict, "update", Refused},
		{Dict, "pop", Refused},
		{Dict, "popitem", Refused},
		{Dict, "setdefault", Refused},
		{Dict, "clear", Refused},
		{Dict, "Elem", NotFound},
		{List, "append", Refused},
		{List, "extend", Refused},
		{List, "insert", Refused},
		{List, "pop", Refused},
		{List, "remove", Refused},
		{List, "clear", Refused},
		{List, "sort", Refused},
		{List, "reverse", Refused},
		{List, "index", Allowed},
		{List, "count", Allowed},
		{Tuple, "count", Allowed},
		{Tuple, "append", NotFound},
		{Int, "to_bytes", Refused},
		{Int, "bit_length", Allowed},
		{Int, "real", Allowed},
		{Float, "is_integer", Allowed},
		{Float, "to_bytes", NotFound},
		{Receiver(99), "x", NotFound},
	}
	for _, c := range cases {
		m, st, why := Lookup(c.r, c.name)
		if st != c.want {
			t.Errorf("%s.%s: status %d, want %d", c.r, c.name, st, c.want)
		}
		if st == Refused && why == "" {
			t.Errorf("%s.%s: refused without a reason", c.r, c.name)
		}
		if st == Allowed && (m.Name != c.name || m.Cost == 0 || m.Doc == "") {
			t.Errorf("%s.%s: incomplete entry %+v", c.r, c.name, m)
		}
	}
}

func TestTablesDocumented(t *testing.T) {
	for _, r := range []Receiver{Str, Markup, Dict, List, Tuple, Int, Float} {
		if len(Methods(r)) == 0 {
			t.Errorf("%s: no methods", r)
		}
		for _, m := range Methods(r) {
			if m.Doc == "" {
				t.Errorf("%s.%s: no doc", r, m.Name)
			}
			if m.Cost == LinearInOutput && m.Estimate == "" {
				t.Errorf("%s.%s: linear-in-output without an estimator hint", r, m.Name)
			}
			if IsPrivateName(m.Name) {
				t.Errorf("%s.%s: private name on a surface", r, m.Name)
			}
		}
		for name, why := range tables[r].refused {
			if why == "" {
				t.Errorf("%s.%s: no reason", r, name)
			}
		}
	}
	if Receiver(42).String() != "unknown" || Cost(42).String() != "unknown" || Str.String() != "str" || Const.String() != "const" {
		t.Error("names")
	}
	if Methods(Receiver(42)) != nil {
		t.Error("unknown receiver has a table")
	}
}

func TestIsPrivateName(t *testing.T) {
	cases := map[string]bool{"": false, "_": true, "_x": true, "__class__": true, "x_": false, "x": false, "a__b": false}
	for n, want := range cases {
		if got := IsPrivateName(n); got != want {
			t.Errorf("IsPrivateName(%q) = %v", n, got)
		}
	}
}

// TestShapeHidesNoEntry: Lookup's shape prefilter only ever skips names
// no entry has, so every allowed and every refused name is still found.
func TestShapeHidesNoEntry(t *testing.T) {
	for i, tb := range tables {
		if tb == nil {
			continue
		}
		r := Receiver(i)
		for name := range tb.allowed {
			if _, st, _ := Lookup(r, name); st != Allowed {
				t.Errorf("%s.%s: allowed entry not found", r, name)
			}
		}
		for name := range tb.refused {
			if _, st, _ := Lookup(r, name); st != Refused {
				t.Errorf("%s.%s: refused entry not found", r, name)
			}
		}
		for _, miss := range []string{"id", "name", "qty", "zz", ""} {
			if _, ok := tb.allowed[miss]; ok {
				continue
			}
			if _, ok := tb.refused[miss]; ok {
				continue
			}
			if _, st, _ := Lookup(r, miss); st != NotFound {
				t.Errorf("%s.%s: found a name that is no entry", r, miss)
			}
		}
	}
}

// TestMayHaveMatchesLookup: MayHave is false only where Lookup finds
// nothing, for every receiver and every name of any surface.
func TestMayHaveMatchesLookup(t *testing.T) {
	names := []string{"", "x", "qty", "zzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzz"}
	for _, tb := range tables {
		if tb == nil {
			continue
		}
		for n := range tb.allowed {
			names = append(names, n)
		}
		for n := range tb.refused {
			names = append(names, n)
		}
	}
	for i := range tables {
		r := Receiver(i)
		for _, n := range names {
			if _, st, _ := Lookup(r, n); st != NotFound && !MayHave(r, n) {
				t.Errorf("MayHave(%s, %q) = false, Lookup finds it", r, n)
			}
		}
	}
	if MayHave(Receiver(200), "items") {
		t.Error("MayHave of an unknown receiver")
	}
}

// TestLongNamesNotLookedUp: a name longer than every entry of a surface is
// answered "no entry" by its length alone (MayHave false), so a megabyte
// name read as an attribute is never hashed (40,000 such lookups ran
// 1.25 s on 50 M units); the longest entries are still found.
func TestLongNamesNotLookedUp(t *testing.T) {
	for i, tb := range tables {
		if tb == nil {
			continue
		}
		r := Receiver(i)
		longest := ""
		for n := range tb.allowed {
			if len(n) > len(longest) {
				longest = n
			}
		}
		for n := range tb.refused {
			if len(n) > len(longest) {
				longest = n
			}
		}
		if !MayHave(r, longest) {
			t.Errorf("%s: its longest entry %q is not looked up", r, longest)
		}
		for _, n := range []int{max(len(longest)+1, maxShape), 1 << 20} {
			if name := strings.Repeat("a", n); MayHave(r, name) {
				t.Errorf("%s: a name of %d bytes (longest entry %d) is looked up", r, n, len(longest))
			}
		}
	}
}
