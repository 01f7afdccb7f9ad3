package engine

import (
	"fmt"
	"strings"
	"sync"
	"testing"
	"unsafe"

	"github.com/jinjabox/jinjabox/engine/value"
)

// Constant call arguments are built once at parse time and shared by
// every call and every render (syntax.CallArgs.Fixed): a call that adds
// to them (a call block passes caller) must copy, and concurrent renders
// must never see another's arguments.
func TestFixedArgsAreNeverModified(t *testing.T) {
	env, err := NewEnvironment(Options{})
	if err != nil {
		t.Fatal(err)
	}
	src := `{% macro m(a, b=2) %}[{{ a }}{{ b }}{{ caller() }}]{% endmacro %}` +
		`{% for i in range(3) %}{% call m(1, b=3) %}{{ i }}{% endcall %}{% endfor %}` +
		`{{ 'abcdef'|truncate(5, True, '~', 0) }}{{ ['x', 'y']|join('-') }}{{ m is callable }}`
	tpl, err := env.Parse("fixed", src)
	if err != nil {
		t.Fatal(err)
	}
	const want = "[130][131][132]abcd~x-yTrue" // Jinja2 3.1.2
	var wg sync.WaitGroup
	errc := make(chan string, 8)
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 50; i++ {
				out, err := tpl.Render(nil)
				if err != nil || out != want {
					errc <- strings.TrimSpace(out) + " " + errString(err)
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errc)
	for e := range errc {
		t.Errorf("got %s, want %q", e, want)
	}
}

func errString(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

// A macro call's scope is recycled when its body closes over nothing
// (macroInfo.closes): a recycled scope starts empty, so no binding of
// one call is seen by the next, recursive and nested calls each have
// their own, and the pool keeps no value of a finished render.
func TestRecycledMacroScopes(t *testing.T) {
	env, err := NewEnvironment(Options{})
	if err != nil {
		t.Fatal(err)
	}
	src := `{%- macro m(a, b=1) -%}{% if a %}{% set x = a * 10 %}{% endif %}<{{ x is defined }}{{ x|default('-') }}{{ b }}{% for i in range(2) %}{{ i }}{% set y = i %}{% endfor %}{{ y is defined }}>{%- endmacro -%}
{%- macro r(n) -%}{% if n > 0 %}({{ n }}{{ r(n - 1) }}{{ m(n) }}){% endif %}{%- endmacro -%}
{{ m(1) }}{{ m(0) }}{{ m(2, b=3) }}{{ r(3) }}{{ m(0) }}{% for k in range(3) %}{{ m(k) }}{% endfor %}`
	const want = "<True10101False><False-101False><True20301False>(3(2(1<True10101False>)<True20101False>)<True30101False>)<False-101False><False-101False><True10101False><True20101False>" // Jinja2 3.1.2
	tpl, err := env.Parse("scopes", src)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 3; i++ { // pooled renderers: the pool survives renders
		out, err := tpl.Render(nil)
		if err != nil || out != want {
			t.Fatalf("render %d: got %q, %v; want %q", i, out, err, want)
		}
	}
	r := &renderer{}
	s := r.takeScope(nil)
	s.vars = append(s.vars, binding{"secret", value.FromString("x")})
	r.releaseScope(s)
	if len(r.scopes) != 1 || r.scopes[0].buf[0] != (binding{}) {
		t.Fatalf("a released scope keeps its bindings: %+v", r.scopes[0].buf[0])
	}
}

// A macro call's argument buffer is recycled once the call returns
// (buildArgs, releaseArgs): what the macro keeps of its arguments
// (varargs, kwargs, stored in an outer namespace) is a copy, so later
// calls through the same buffer never change it.
func TestRecycledMacroArgs(t *testing.T) {
	env, err := NewEnvironment(Options{})
	if err != nil {
		t.Fatal(err)
	}
	src := `{%- set ns = namespace(t=none, k=none) -%}
{%- macro keep(a) -%}{% set ns.t = varargs %}{% set ns.k = kwargs %}{{ a }}{%- endmacro -%}
{%- macro other(a, b, c) -%}{{ a }}{{ b }}{{ c }}{%- endmacro -%}
{{ keep(1, 2, 3, x=4) }}{{ other(7, 8, 9) }}{{ other(x, 5, 6) }}{{ ns.t }}{{ ns.k }}{{ keep(0, 'z') }}{{ other(1, 2, 3) }}{{ ns.t }}`
	const want = "1789X56(2, 3){'x': 4}0123('z',)" // Jinja2 3.1.2
	out, err := env.RenderString("args", src, map[string]any{"x": "X"}, RenderOptions{})
	if err != nil || out.Output != want {
		t.Fatalf("got %q, %v; want %q", out.Output, err, want)
	}
}

// A pooled renderer reuses the storage of the top-level data it copied
// in (bindData): each render sees its own data only, whatever the one
// before it held.
func TestRecycledRootData(t *testing.T) {
	env, err := NewEnvironment(Options{})
	if err != nil {
		t.Fatal(err)
	}
	tpl, err := env.Parse("root", "{{ a is defined }}{{ b|default('-') }}{{ c|default('-') }}")
	if err != nil {
		t.Fatal(err)
	}
	for i, c := range []struct {
		data map[string]any
		want string
	}{
		{map[string]any{"a": 1, "b": 2, "c": 3}, "True23"},
		{map[string]any{}, "False--"},
		{map[string]any{"c": "x"}, "False-x"},
		{map[string]any{"a": 0, "b": "y", "c": "z", "d": 4, "e": 5, "f": 6, "g": 7, "h": 8, "i": 9}, "Trueyz"},
		{nil, "False--"},
	} {
		for j := 0; j < 2; j++ {
			out, err := tpl.Render(c.data)
			if err != nil || out != c.want {
				t.Fatalf("render %d.%d: got %q, %v; want %q", i, j, out, err, c.want)
			}
		}
	}
	var d value.DictData
	d.Reset(4)
	if d.Len() != 0 {
		t.Fatal("Reset left entries")
	}
}

// keepFn is host code that keeps a value it is handed past the render
// (a host global, a host object's method, a host filter): what it keeps
// must stay what it was, whatever later renders copy in.
type keepFn struct{ kept *value.Value }

func (k keepFn) CallName() string { return "keep" }
func (k keepFn) Call(_ value.Ctx, args *value.Args) value.Value {
	*k.kept = args.Pos[0]
	return value.FromString("")
}

// keeper is a host object whose method keeps its argument.
type keeper struct{ fn keepFn }

func (*keeper) TypeName() string { return "Keeper" }
func (*keeper) TemplateSurface() {}
func (o *keeper) Attr(_ value.Ctx, name string) (value.Value, bool) {
	if name == "keep" {
		return value.FromCallable(o.fn), true
	}
	return value.Value{}, false
}

// The containers a render copies in live in its renderer's arena, handed
// out again to the next render, only while no host code can see them:
// with a host filter, test or callable global in the environment, or a
// host object in the data, a value host code kept stays intact however
// many renders follow; and renders from pooled renderers, one after the
// other with other data, each see their own data only.
func TestArenaNeverReusedUnderHostCode(t *testing.T) {
	rows := func(tag string) map[string]any {
		return map[string]any{"rows": []any{map[string]any{"a": tag, "b": 1}, map[string]any{"a": tag, "b": 2}}}
	}
	const want = "[{'a': 'kept', 'b': 1}, {'a': 'kept', 'b': 2}]"
	// keepThenChurn renders src, whose host code keeps a value of data,
	// then 200 renders of other data, and checks the kept value.
	keepThenChurn := func(t *testing.T, env *Environment, src string, data map[string]any, kept *value.Value) {
		t.Helper()
		keep, _ := env.Parse("k", src)
		if _, err := keep.Render(data); err != nil {
			t.Fatal(err)
		}
		tpl, err := env.Parse("c", "{% for r in rows %}{{ r.a }}{{ r.b }}{% endfor %}")
		if err != nil {
			t.Fatal(err)
		}
		for i := 0; i < 200; i++ {
			if out, err := tpl.Render(rows("other")); err != nil || out != "other1other2" {
				t.Fatalf("render %d: %q, %v", i, out, err)
			}
		}
		if got := value.Repr(*kept); got != want {
			t.Errorf("the kept value became %s, want %s", got, want)
		}
	}
	t.Run("host global", func(t *testing.T) {
		var kept value.Value
		env, _ := NewEnvironment(Options{Globals: map[string]any{"keep": value.FromCallable(keepFn{&kept})}})
		if env.engineOnly {
			t.Fatal("an environment with a host callable global reuses its arenas")
		}
		keepThenChurn(t, env, "{{ keep(rows) }}", rows("kept"), &kept)
	})
	t.Run("host filter", func(t *testing.T) {
		var kept value.Value
		env, _ := NewEnvironment(Options{Filters: map[string]Filter{"keep": func(_ value.Ctx, v value.Value, _ *value.Args) (value.Value, error) {
			kept = v
			return value.FromString(""), nil
		}}})
		if env.engineOnly {
			t.Fatal("an environment with a host filter reuses its arenas")
		}
		keepThenChurn(t, env, "{{ rows|keep }}", rows("kept"), &kept)
	})
	t.Run("host object in the data", func(t *testing.T) {
		var kept value.Value
		env, _ := NewEnvironment(Options{Globals: map[string]any{"site": "example"}})
		if !env.engineOnly {
			t.Fatal("an environment with data globals only does not reuse its arenas")
		}
		data := rows("kept")
		data["obj"] = &keeper{fn: keepFn{&kept}}
		keepThenChurn(t, env, "{{ obj.keep(rows) }}", data, &kept)
	})
}

// A render that returns a string writes a large output in place of the
// string, at the end of the renderer's slab (outBuf.own): a later
// render, of any kind (a string, to a writer, a refused one), writes
// after it or elsewhere, never over a string an earlier render returned.
func TestReturnedOutputNeverReused(t *testing.T) {
	env, err := NewEnvironment(Options{})
	if err != nil {
		t.Fatal(err)
	}
	big := strings.Repeat("static text ", 1000) // past minOwnedOutput
	tpl, err := env.Parse("big", big+`{{ v }}{% if fail %}{{ 1 / 0 }}{% endif %}`)
	if err != nil {
		t.Fatal(err)
	}
	var kept []string
	for i := 0; i < 20; i++ {
		v := strings.Repeat(string(rune('a'+i)), 8)
		out, err := tpl.Render(map[string]any{"v": v})
		if err != nil || out != big+v {
			t.Fatalf("render %d: %v", i, err)
		}
		kept = append(kept, out)
		c, err := env.Prepare(map[string]any{"v": "yyyyyyyy"})
		if err != nil {
			t.Fatal(err)
		}
		var sb strings.Builder
		if _, err := tpl.RenderTo(&sb, c, RenderOptions{}); err != nil || sb.String() != big+"yyyyyyyy" {
			t.Fatalf("RenderTo: %v", err)
		}
		if _, err := tpl.Render(map[string]any{"v": "zzzzzzzz", "fail": true}); err == nil {
			t.Fatal("the division by zero rendered")
		}
	}
	shared := 0
	for i, s := range kept {
		if want := big + strings.Repeat(string(rune('a'+i)), 8); s != want {
			t.Fatalf("render %d's output changed after later renders: ends %q", i, s[len(s)-8:])
		}
		if i > 0 {
			p, q := uintptr(unsafe.Pointer(unsafe.StringData(kept[i-1]))), uintptr(unsafe.Pointer(unsafe.StringData(s)))
			if q > p && q-p < maxSlab {
				shared++ // written after the one before, in its slab
			}
		}
	}
	if shared == 0 {
		t.Fatal("no two outputs shared a slab: the test does not reach the reuse it guards")
	}
}

// Renders on many goroutines cut outputs from slabs while other
// goroutines read the outputs returned before (go test -race: no race,
// as no byte of a returned string is written again).
func TestSlabOutputsConcurrent(t *testing.T) {
	env, err := NewEnvironment(Options{})
	if err != nil {
		t.Fatal(err)
	}
	big := strings.Repeat("slab text ", 600)
	tpl, err := env.Parse("big", big+`{{ v }}`)
	if err != nil {
		t.Fatal(err)
	}
	type output struct{ got, want string }
	outs := make(chan output, 64)
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Go(func() {
			for i := range 50 {
				v := fmt.Sprintf("g%d-%03d", g, i) // every output differs
				out, err := tpl.Render(map[string]any{"v": v})
				if err != nil {
					t.Error(err)
					return
				}
				outs <- output{out, big + v}
			}
		})
	}
	go func() { wg.Wait(); close(outs) }()
	var seen []output
	for out := range outs {
		seen = append(seen, out)
		for _, o := range seen {
			if o.got != o.want {
				t.Fatalf("an output changed while later renders ran: ends %q, want %q", o.got[len(big):], o.want[len(big):])
			}
		}
	}
	if len(seen) != 200 {
		t.Fatalf("%d outputs", len(seen))
	}
}

// An owned output is cut from the buffer's slab with no copy, and the
// next owned output is written after it in the same slab: the earlier
// string's bytes are never written again, by a later output, by one that
// outgrows the slab (copied out, the slab kept), or by a new slab. Between
// owned outputs the buffer is back on its pooled chunk.
func TestOwnedOutputHandOver(t *testing.T) {
	var b outBuf
	b.cur = make([]byte, 0, 64)
	pooled := unsafe.SliceData(b.cur)

	b.own(128)
	if b.sb.Cap() < slabSize(128) || slabSize(128) != slabOutputs*128 {
		t.Fatalf("a slab for 128-byte outputs has room %d, want %d", b.sb.Cap(), slabOutputs*128)
	}
	b.writeString(strings.Repeat("x", 100))
	b.write([]byte(strings.Repeat("x", 20)))
	x := b.String()
	if x != strings.Repeat("x", 120) {
		t.Fatalf("first owned output %q", x)
	}
	start := unsafe.StringData(x)
	b.reset(maxPooledOutput)
	if unsafe.SliceData(b.cur) != pooled || b.owned || b.spare != nil {
		t.Fatal("reset did not return to the pooled chunk")
	}

	b.own(128)
	b.writeString(strings.Repeat("y", 50))
	y := b.String()
	if y != strings.Repeat("y", 50) || unsafe.Pointer(unsafe.StringData(y)) != unsafe.Add(unsafe.Pointer(start), 120) {
		t.Fatal("the second owned output was not written after the first in its slab")
	}
	b.reset(maxPooledOutput)

	// outgrows the slab's room: copied out into chunks, joined
	b.own(128)
	big := strings.Repeat("z", slabOutputs*128)
	b.writeString("0123456789")
	b.writeString(big)
	if s := b.String(); s != "0123456789"+big {
		t.Fatalf("joined output of %d bytes", len(s))
	}
	b.reset(maxPooledOutput)
	if unsafe.SliceData(b.cur) != pooled {
		t.Fatal("reset after a join did not return to the pooled chunk")
	}

	// the slab's room is short of a new guess: a new slab
	b.own(slabOutputs * 128)
	b.writeString("w")
	w := b.String()
	p, lo := uintptr(unsafe.Pointer(unsafe.StringData(w))), uintptr(unsafe.Pointer(start))
	if w != "w" || (p >= lo && p < lo+uintptr(slabOutputs*128)) {
		t.Fatal("an output was written in a slab without room for its guess")
	}
	if x != strings.Repeat("x", 120) || y != strings.Repeat("y", 50) {
		t.Fatal("a later output wrote over an earlier one")
	}
}

// A slab is made for slabOutputs outputs of the guessed size, up to
// maxSlab, and never with less room than the guess.
func TestSlabSize(t *testing.T) {
	for _, c := range []struct{ size, want int }{
		{minOwnedOutput, slabOutputs * minOwnedOutput},
		{103059, slabOutputs * 103059}, // bigtext: 1.6 MB for 16
		{maxSlab / 4, maxSlab},
		{outChunk, maxSlab},
		{3 * maxSlab, 3 * maxSlab},
	} {
		if got := slabSize(c.size); got != c.want {
			t.Errorf("slabSize(%d) = %d, want %d", c.size, got, c.want)
		}
	}
}

// A render writes its output in place of the returned string only when
// the output is large and mostly the template's own text (ownsOutput).
func TestOwnsOutput(t *testing.T) {
	for _, c := range []struct {
		static int64
		size   int
		want   bool
	}{
		{0, 0, false},
		{3000, 3000, false},                    // small
		{minOwnedOutput, minOwnedOutput, true}, // the threshold, all static
		{103027, 103043, true},                 // bigtext
		{600, 116000, false},                   // table: loops of small writes
		{60000, 120000, true},                  // half static
		{59999, 120000, false},                 // under half
	} {
		if got := ownsOutput(c.static, c.size); got != c.want {
			t.Errorf("ownsOutput(%d, %d) = %v, want %v", c.static, c.size, got, c.want)
		}
	}
}

// An output that is one write alone is that write's string (outBuf.first):
// a one-literal condition returns the template's own text and allocates
// nothing; any write after it, a spill to a second chunk or a render to a
// writer makes the output a copy again, and it always equals what was
// written.
func TestSingleWriteOutputShared(t *testing.T) {
	env, err := NewEnvironment(Options{})
	if err != nil {
		t.Fatal(err)
	}
	doc := strings.Repeat("d", 300)
	for _, c := range []struct {
		src, want string
		shared    string // "" for a copy
	}{
		{`{{ 'yes' if (score > 0.7 and 'urgent' in tags) else 'no' }}`, "yes", ""},
		{`{{ doc }}`, doc, doc},
		{`{{ doc }}{{ '' }}`, doc, doc}, // an empty write adds nothing
		{`{{ '' }}{{ doc }}`, doc, doc}, // nor before it
		{`{{ doc }}!`, doc + "!", ""},
		{`{{ doc }}{{ doc }}`, doc + doc, ""},
		{`{% if false %}x{% endif %}`, "", ""},
		{`{% set x %}{{ doc }}{% endset %}{{ x }}`, doc, doc},         // a capture of one write too
		{`{% macro m() %}{{ doc }}{% endmacro %}{{ m() }}`, doc, doc}, // a macro's output is a capture
		{`{% set x %}{{ doc }}!{% endset %}{{ x }}`, doc + "!", ""},   // a capture of two writes is copied
	} {
		tpl, err := env.Parse("t", c.src)
		if err != nil {
			t.Fatal(err)
		}
		data := map[string]any{"score": 0.82, "tags": []any{"urgent"}, "doc": doc}
		for i := 0; i < 3; i++ { // the pooled renderer's second and third renders too
			out, err := tpl.Render(data)
			if err != nil || out != c.want {
				t.Fatalf("%s: %q, %v", c.src, out, err)
			}
			if c.shared != "" && unsafe.StringData(out) != unsafe.StringData(c.shared) {
				t.Fatalf("%s: the one value written was copied", c.src)
			}
			if c.shared == "" && len(out) > 0 && unsafe.StringData(out) == unsafe.StringData(doc) {
				t.Fatalf("%s: an output of several writes is the first one's string", c.src)
			}
			ctx, err := env.Prepare(data)
			if err != nil {
				t.Fatal(err)
			}
			var sb strings.Builder
			if _, err := tpl.RenderTo(&sb, ctx, RenderOptions{}); err != nil || sb.String() != c.want {
				t.Fatalf("%s RenderTo: %q, %v", c.src, sb.String(), err)
			}
		}
	}
	lit, err := env.Parse("lit", `{{ 'yes' if x else 'no' }}`)
	if err != nil {
		t.Fatal(err)
	}
	ctx, err := env.Prepare(map[string]any{"x": true})
	if err != nil {
		t.Fatal(err)
	}
	if n := testing.AllocsPerRun(100, func() {
		if r, err := lit.RenderPrepared(ctx, RenderOptions{}); err != nil || r.Output != "yes" {
			t.Fatal(r.Output, err)
		}
	}); n != 0 {
		t.Fatalf("a one-literal render from a context allocated %v times", n)
	}
	// Render passes every render one shared zero RenderOptions: no
	// render writes to it
	if noOptions != (RenderOptions{}) {
		t.Fatalf("Render's shared options were written: %+v", noOptions)
	}
}
