package engine

import "testing"

// TestKwKeysShared: a call's keyword names, indexed once at parse time
// (syntax.CallArgs.Keys), make the dicts of its keywords (dict(),
// namespace(), a macro's kwargs) without hashing them, and those dicts
// share the template's arrays until they change (a namespace's set): each
// template renders as Jinja2 3.1.2 does (the outputs below are its), twice
// from one parse, so a dict that wrote into the shared arrays shows in the
// second render. The same for keywords unpacked from a whole dict with
// ** alone, whose dict shares all the unpacked dict's arrays: a
// namespace made so copies them at its first set, and the dict it was
// made from keeps its entries.
func TestKwKeysShared(t *testing.T) {
	cases := []struct {
		name, tpl, want string
		fails           bool
	}{
		{"dict-static", "{% for i in range(2) %}{% set d = dict(k0=0, k1=1, k2=2, k3=3, k4=4, k5=5, k6=6, k7=7, k8=8, k9=9, k10=10, k11=11) %}{{ d|length }}{{ d.k7 }}{{ 'k11' in d }}{{ d|list|join(',') }};{% endfor %}", "127Truek0,k1,k2,k3,k4,k5,k6,k7,k8,k9,k10,k11;127Truek0,k1,k2,k3,k4,k5,k6,k7,k8,k9,k10,k11;", false},
		{"namespace-add", "{% set ns = namespace(k0=0, k1=1, k2=2, k3=3, k4=4, k5=5, k6=6, k7=7, k8=8, k9=9, k10=10, k11=11) %}{% set ns.k3 = 'x' %}{% set ns.new = 'n' %}{{ ns.k3 }}{{ ns.new }}{{ ns.k11 }}|{% set ns2 = namespace(k0=0, k1=1, k2=2, k3=3, k4=4, k5=5, k6=6, k7=7, k8=8, k9=9, k10=10, k11=11) %}{{ ns2.k3 }}{{ ns2.new is defined }}", "xn11|3False", false},
		{"macro-kwargs", "{% macro m() %}{{ kwargs|length }}{{ kwargs.k5 }}{{ kwargs|list|join(',') }}{% endmacro %}{{ m(k0=0, k1=1, k2=2, k3=3, k4=4, k5=5, k6=6, k7=7, k8=8, k9=9, k10=10, k11=11) }}|{{ m(k0=0, k1=1, k2=2, k3=3, k4=4, k5=5, k6=6, k7=7, k8=8, k9=9, k10=10, k11=11) }}", "125k0,k1,k2,k3,k4,k5,k6,k7,k8,k9,k10,k11|125k0,k1,k2,k3,k4,k5,k6,k7,k8,k9,k10,k11", false},
		{"macro-kwargs-param", "{% macro m(k4, x=1) %}{{ k4 }}{{ x }}{{ kwargs|length }}{{ 'k4' in kwargs }}{{ kwargs|list|join(',') }}{% endmacro %}{{ m(k0=0, k1=1, k2=2, k3=3, k4=4, k5=5, k6=6, k7=7, k8=8, k9=9, k10=10, k11=11) }}|{{ m(9, k0=0, k1=1, k2=2, k3=3, k5=5, k6=6, k7=7, k8=8, k9=9, k10=10, k11=11) }}|{{ m(9, k0=0, k1=1, k2=2, k3=3, k4=4, k5=5, k6=6, k7=7, k8=8, k9=9, k10=10, k11=11) }}", "4111Falsek0,k1,k2,k3,k5,k6,k7,k8,k9,k10,k11|9111Falsek0,k1,k2,k3,k5,k6,k7,k8,k9,k10,k11|9112Truek0,k1,k2,k3,k4,k5,k6,k7,k8,k9,k10,k11", false},
		{"macro-kwargs-caller", "{% macro m() %}{{ caller() }}{{ kwargs|length }}{% endmacro %}{% call m(k0=0, k1=1, k2=2, k3=3, k4=4, k5=5, k6=6, k7=7, k8=8, k9=9, k10=10, k11=11) %}C{% endcall %}", "C12", false},
		{"macro-unpack", "{% set d = dict(k0=0, k1=1, k2=2, k3=3, k4=4, k5=5, k6=6, k7=7, k8=8, k9=9, k10=10, k11=11) %}{% macro m(k2) %}{{ k2 }}{{ kwargs|length }}{{ kwargs|list|join(',') }}{% endmacro %}{{ m(**d) }}|{% macro n() %}{{ kwargs == d }}{{ kwargs|list|join(',') }}{% endmacro %}{{ n(**d) }}{{ d|length }}", "211k0,k1,k3,k4,k5,k6,k7,k8,k9,k10,k11|Truek0,k1,k2,k3,k4,k5,k6,k7,k8,k9,k10,k1112", false},
		{"dict-unpack", "{% set d = dict(k0=0, k1=1, k2=2, k3=3, k4=4, k5=5, k6=6, k7=7, k8=8, k9=9, k10=10, k11=11) %}{% set e = dict(**d) %}{{ e == d }}{{ e|length }}{{ e.k0 }}{{ dict(d, z=1)|length }}{{ dict(**{}.fromkeys(range(20)|map('string')))|length }}", "True1201320", false},
		{"namespace-unpack", "{% set d = dict(k0=0, k1=1, k2=2, k3=3, k4=4, k5=5, k6=6, k7=7, k8=8, k9=9, k10=10, k11=11) %}{% set ns = namespace(**d) %}{% set ns.k3 = 'x' %}{{ ns.k3 }}{{ d.k3 }}|{% set ns2 = namespace(**d) %}{% set ns2.new = 'n' %}{{ ns2.new }}{{ ns2.k11 }}{{ d.new is defined }}{{ d|length }}|{% set ns3 = namespace(**d) %}{{ ns3.k3 }}{{ ns3.new is defined }}", "x3|n11False12|3False", false},
		{"unpack-twice", "{% set d = {}.fromkeys(range(30)|map('string'), 7) %}{% macro m() %}{{ kwargs|length }}{{ kwargs['29'] }}{% endmacro %}{{ m(**d) }}{{ m(**dict(**d)) }}{{ dict(**d) == d }}", "307307True", false},
		{"macro-no-kwargs", "{% macro m() %}x{% endmacro %}{{ m(k0=0, k1=1, k2=2, k3=3, k4=4, k5=5, k6=6, k7=7, k8=8, k9=9, k10=10, k11=11) }}", "", true},
	}
	env, err := NewEnvironment(Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range cases {
		tmpl, err := env.Parse(c.name, c.tpl)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		for run := 0; run < 2; run++ {
			out, err := tmpl.Render(nil)
			if c.fails {
				if err == nil {
					t.Errorf("%s: want a type error, got %q", c.name, out)
				}
				continue
			}
			if err != nil || out != c.want {
				t.Errorf("%s (render %d): want %q, got %q %v", c.name, run+1, c.want, out, err)
			}
		}
	}
}
