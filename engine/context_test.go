package engine

import (
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/jinjabox/jinjabox/budget"
	"github.com/jinjabox/jinjabox/engine/value"
)

// contextData is shared data with every kind of container a render may
// cache something on: nested dicts and lists, strings, numbers.
func contextData() map[string]any {
	return map[string]any{
		"user":  map[string]any{"name": "Ada", "tags": []any{"x", "y"}, "age": 36},
		"items": []any{map[string]any{"n": "b", "q": 2}, map[string]any{"n": "a", "q": 1}},
		"text":  "héllo",
		"n":     7,
	}
}

// sharedTemplates exercise what reads shared containers: printing and
// str() (the size cache), namespace() and set ns.x (the data-only
// mark), length, sort, hashing keys, iteration.
var sharedTemplates = []string{
	"{{ user }} {{ items }} {{ user.tags|length }} {{ text|length }}",
	"{% set ns = namespace(u=user, i=items) %}{% set ns.t = user.tags %}{{ ns.u.name }}{{ ns.i|length }}",
	"{% for it in items|sort(attribute='n') %}{{ it.n }}{{ it.q }}{% endfor %}",
	"{{ 'name' in user }}{{ user['age'] + n }}{{ items|map(attribute='q')|sum }}",
	"{{ user|tojson }}{{ items|string|length }}{{ (user.tags ~ '')|upper }}",
	"{{ user.tags|unique|list }}{{ dict(user) }}{{ user.items()|list|length }}",
}

// TestPrepareRendersAsRender: a render from a prepared context gives the
// output, error and units of a render that copies the same data in.
func TestPrepareRendersAsRender(t *testing.T) {
	env, _ := NewEnvironment(Options{})
	data := contextData()
	ctx, err := env.Prepare(data)
	if err != nil {
		t.Fatal(err)
	}
	srcs := append([]string{"{{ missing.x }}", "{{ n / 0 }}", "plain text"}, sharedTemplates...)
	for _, src := range srcs {
		tpl, err := env.Parse("t", src)
		if err != nil {
			t.Fatal(err)
		}
		want, wantErr := tpl.RenderResult(data, RenderOptions{})
		got, gotErr := tpl.RenderPrepared(ctx, RenderOptions{})
		if got != want || fmt.Sprint(gotErr) != fmt.Sprint(wantErr) {
			t.Errorf("%s: RenderPrepared = %+v, %v; RenderResult = %+v, %v", src, got, gotErr, want, wantErr)
		}
	}
	// the nil context is the empty one
	tpl, _ := env.Parse("t", "[{{ x }}]")
	if r, err := tpl.RenderPrepared(nil, RenderOptions{}); err != nil || r.Output != "[]" {
		t.Errorf("nil context: %q, %v", r.Output, err)
	}
}

// TestPrepareCeilings: Prepare refuses what a render's copy-in refuses,
// with the same error, for a template that reads the names (a render
// copies in only those: TestUnreadNamesAreNotCopied).
func TestPrepareCeilings(t *testing.T) {
	env, _ := NewEnvironment(Options{})
	deep := any("leaf")
	for range 300 {
		deep = []any{deep}
	}
	graph := make([]any, 400)
	for i := range graph {
		graph[i] = make([]any, 300)
	}
	cases := []struct {
		name string
		data map[string]any
	}{
		{"container", map[string]any{"x": map[string]any{"y": make([]any, 100001)}}},
		{"graph", map[string]any{"g": graph}},
		{"depth", map[string]any{"d": deep}},
		{"func", map[string]any{"f": func() {}}},
	}
	tpl, _ := env.Parse("t", "{{ 1 }}{% if false %}{{ x }}{{ g }}{{ d }}{{ f }}{% endif %}")
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, perr := env.Prepare(c.data)
			_, rerr := tpl.RenderResult(c.data, RenderOptions{})
			var e *Error
			if !errors.As(perr, &e) || e.Kind != KindType {
				t.Fatalf("Prepare: want a type error, got %v", perr)
			}
			if perr.Error() != rerr.Error() {
				t.Errorf("Prepare's error %q differs from a render's %q", perr, rerr)
			}
		})
	}
}

// TestPrepareIsolation: a context never observes later changes to the
// caller's data, nor does an update or a render change it.
func TestPrepareIsolation(t *testing.T) {
	env, _ := NewEnvironment(Options{})
	data := contextData()
	ctx, err := env.Prepare(data)
	if err != nil {
		t.Fatal(err)
	}
	tpl, _ := env.Parse("t", "{{ user.name }} {{ user.tags }} {{ items[0].n }} {{ n }}")
	before, _ := tpl.RenderPrepared(ctx, RenderOptions{})
	data["n"] = 8
	data["user"].(map[string]any)["name"] = "Bob"
	data["user"].(map[string]any)["tags"].([]any)[0] = "changed"
	data["items"].([]any)[0].(map[string]any)["n"] = "z"
	if _, err := ctx.WithPath([]string{"user", "name"}, "Eve"); err != nil {
		t.Fatal(err)
	}
	for _, src := range sharedTemplates {
		p, _ := env.Parse("s", src)
		if _, err := p.RenderPrepared(ctx, RenderOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	after, _ := tpl.RenderPrepared(ctx, RenderOptions{})
	if after != before || before.Output != "Ada ['x', 'y'] b 7" {
		t.Errorf("the context changed: %q, then %q", before.Output, after.Output)
	}
}

// TestWithPath: updates replace or add one value and share the rest;
// refused updates name their reason and leave the context as it was.
func TestWithPath(t *testing.T) {
	env, _ := NewEnvironment(Options{})
	base, err := env.Prepare(contextData())
	if err != nil {
		t.Fatal(err)
	}
	const src = "{{ n }}|{{ user.name }}|{{ user.tags }}|{{ items|map(attribute='n')|join }}|{{ new }}|{{ user.extra }}"
	tpl, _ := env.Parse("t", src)
	render := func(c *Prepared) string {
		r, err := tpl.RenderPrepared(c, RenderOptions{})
		if err != nil {
			t.Fatal(err)
		}
		return r.Output
	}
	original := render(base)
	long := make([]string, MaxPathSegments+1)
	for i := range long {
		long[i] = "a"
	}
	cases := []struct {
		name string
		path []string
		x    any
		kind ErrorKind // 0: success
		want string    // the output, or a substring of the message
	}{
		{"replace-top", []string{"n"}, 8, 0, "8|Ada|['x', 'y']|ba||"},
		{"add-top", []string{"new"}, map[string]any{"k": 1}, 0, "7|Ada|['x', 'y']|ba|{'k': 1}|"},
		{"replace-nested", []string{"user", "name"}, "Eve", 0, "7|Eve|['x', 'y']|ba||"},
		{"add-nested", []string{"user", "extra"}, []any{1, 2}, 0, "7|Ada|['x', 'y']|ba||[1, 2]"},
		{"list-item", []string{"user", "tags", "1"}, "z", 0, "7|Ada|['x', 'z']|ba||"},
		{"list-item-dict", []string{"items", "0", "n"}, "c", 0, "7|Ada|['x', 'y']|ca||"},
		{"empty-path", nil, 1, KindSyntax, "empty path"},
		{"empty-segment", []string{"user", ""}, 1, KindSyntax, "empty segment"},
		{"underscore-top", []string{"_secret"}, 1, KindSecurity, "underscore"},
		{"underscore-nested", []string{"user", "__class__"}, 1, KindSecurity, "underscore"},
		{"too-long", long, 1, KindType, "a path has at most 256"},
		{"missing-parent", []string{"nobody", "name"}, 1, KindUndefined, "\"nobody\" is not defined"},
		{"through-scalar", []string{"n", "x"}, 1, KindType, "is a int"},
		{"list-grows", []string{"user", "tags", "2"}, "z", KindUndefined, "never grows"},
		{"list-key", []string{"items", "k", "n"}, "z", KindUndefined, "not defined"},
		{"not-data", []string{"f"}, func() {}, KindType, "cannot copy data at f"},
		{"not-data-nested", []string{"user", "f"}, []any{func() {}}, KindType, "cannot copy data at user.f[0]"},
		{"container-ceiling", []string{"big"}, make([]any, 100001), KindType, "more than 100000 entries"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := base.WithPath(c.path, c.x)
			if c.kind == 0 {
				if err != nil {
					t.Fatal(err)
				}
				if out := render(got); out != c.want {
					t.Errorf("got %q, want %q", out, c.want)
				}
			} else {
				var e *Error
				if !errors.As(err, &e) || e.Kind != c.kind || !strings.Contains(e.Message, c.want) {
					t.Errorf("got %v, want a %s error containing %q", err, c.kind, c.want)
				}
				if got != nil {
					t.Error("a refused update returned a context")
				}
			}
			if out := render(base); out != original {
				t.Errorf("the original context changed: %q, want %q", out, original)
			}
		})
	}
}

// TestWithPathCountsTheGraph: the entry ceiling holds across updates, as
// it does for one copy of the whole data: an update may not grow the
// graph past value.MaxGraphEntries, and a replaced value's entries are
// taken out first.
func TestWithPathCountsTheGraph(t *testing.T) {
	env, _ := NewEnvironment(Options{})
	half := func() []any { return make([]any, value.MaxGraphEntries/2) }
	ctx, err := env.Prepare(map[string]any{"a": half()})
	if err != nil {
		t.Fatal(err)
	}
	ctx, err = ctx.WithPath([]string{"b"}, half())
	if err != nil {
		t.Fatalf("the graph holds exactly the ceiling: %v", err)
	}
	if _, err := ctx.WithPath([]string{"c"}, []any{1}); err == nil {
		t.Error("an update grew the graph past the ceiling")
	}
	if _, err := ctx.WithPath([]string{"a"}, half()); err != nil {
		t.Errorf("replacing a value must take its entries out: %v", err)
	}
	// a key added to a nested dict is an entry of that dict
	full, err := env.Prepare(map[string]any{"d": map[string]any{}, "l": make([]any, value.MaxGraphEntries)})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := full.WithPath([]string{"d", "k"}, 1); err == nil {
		t.Error("a nested key added past the ceiling")
	}
	if _, err := full.WithPath([]string{"top"}, 1); err != nil {
		t.Errorf("a top-level scalar adds no entry: %v", err)
	}
}

// TestContextConcurrentRenders: renders from one context in many
// goroutines (run with -race) give the sequential results, and leave the
// context as it was. The templates reach every cache a render could fill
// on a shared container.
func TestContextConcurrentRenders(t *testing.T) {
	env, _ := NewEnvironment(Options{})
	ctx, err := env.Prepare(contextData())
	if err != nil {
		t.Fatal(err)
	}
	ctx2, err := ctx.WithPath([]string{"user", "tags"}, []any{"p", "q"})
	if err != nil {
		t.Fatal(err)
	}
	var tpls []*Template
	for _, src := range sharedTemplates {
		tpl, err := env.Parse("t", src)
		if err != nil {
			t.Fatal(err)
		}
		tpls = append(tpls, tpl)
	}
	// the wanted results come from fresh copies, so no render below
	// runs on a container an earlier render touched
	fresh := func(c *Prepared) []Result {
		var rs []Result
		for _, tpl := range tpls {
			r, err := tpl.RenderPrepared(c, RenderOptions{})
			if err != nil {
				t.Fatal(err)
			}
			rs = append(rs, r)
		}
		return rs
	}
	f1, _ := env.Prepare(contextData())
	f2, _ := f1.WithPath([]string{"user", "tags"}, []any{"p", "q"})
	want := append(fresh(f1), fresh(f2)...)
	var wg sync.WaitGroup
	errc := make(chan error, 8)
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for round := range 20 {
				for i := range tpls {
					k := (i + g + round) % len(tpls)
					for j, c := range []*Prepared{ctx, ctx2} {
						r, err := tpls[k].RenderPrepared(c, RenderOptions{})
						if err != nil || r != want[j*len(tpls)+k] {
							errc <- fmt.Errorf("template %d on context %d: %+v, %v", k, j, r, err)
							return
						}
					}
				}
			}
		}()
	}
	wg.Wait()
	close(errc)
	for err := range errc {
		t.Error(err)
	}
}

// failWriter records what it was given and fails when told to.
type failWriter struct {
	writes []string
	err    error
}

func (w *failWriter) Write(p []byte) (int, error) {
	w.writes = append(w.writes, string(p))
	if w.err != nil {
		return 0, w.err
	}
	return len(p), nil
}

// TestRenderTo: the output reaches the writer in one write, after the
// render succeeded; a refused render writes nothing; a writer's error is
// returned.
func TestRenderTo(t *testing.T) {
	env, _ := NewEnvironment(Options{})
	ctx, _ := env.Prepare(map[string]any{"n": 3})
	ok, _ := env.Parse("ok", "static {{ n }} text")
	bad, _ := env.Parse("bad", "partial output {{ n }} then {{ n.x.y }}")
	var w failWriter
	units, err := ok.RenderTo(&w, ctx, RenderOptions{})
	want, _ := ok.RenderPrepared(ctx, RenderOptions{})
	if err != nil || len(w.writes) != 1 || w.writes[0] != "static 3 text" || units != want.Units {
		t.Errorf("RenderTo: writes %q, units %d (want %d), err %v", w.writes, units, want.Units, err)
	}
	w = failWriter{}
	if _, err := bad.RenderTo(&w, ctx, RenderOptions{}); err == nil || len(w.writes) != 0 {
		t.Errorf("a refused render wrote %q (err %v)", w.writes, err)
	}
	w = failWriter{err: errors.New("disk full")}
	if units, err := ok.RenderTo(&w, ctx, RenderOptions{}); err == nil || err.Error() != "disk full" || units != want.Units {
		t.Errorf("the writer's error: %d, %v", units, err)
	}
}

// TestMeteringOn: this build meters every render (only the benchmark's
// jinjabox_nometer build does not, metering_off.go): a loop past a small
// budget is refused.
func TestMeteringOn(t *testing.T) {
	if !metering {
		t.Fatal("metering is off: the jinjabox_nometer tag is for make bench only")
	}
	env, _ := NewEnvironment(Options{Limits: budget.Limits{WorkUnits: 10000}})
	tpl, _ := env.Parse("t", "{% for i in range(1000) %}{% endfor %}")
	ctx, _ := env.Prepare(nil)
	_, err := tpl.RenderPrepared(ctx, RenderOptions{})
	var e *Error
	if !errors.As(err, &e) || e.Kind != KindBudget {
		t.Fatalf("want a budget error, got %v", err)
	}
}

// TestPooledRenderersLeaveNoState: renderers are recycled between
// renders; whatever a render left behind (capture buffers, root-scope
// bindings, a refusal half-way, a cancelled context) never shows in the
// next one's output, error or units.
func TestPooledRenderersLeaveNoState(t *testing.T) {
	env, _ := NewEnvironment(Options{})
	var many, kws strings.Builder
	for i := range 2000 {
		fmt.Fprintf(&many, "{%% set v%d = %d %%}", i, i)
		fmt.Fprintf(&kws, "k%d=%d, ", i, i)
	}
	dirty := []string{
		"{% macro m(x) %}<{{ x }}>{% endmacro %}{% for i in range(50) %}{{ m(i) }}{% endfor %}{% set a = 1 %}{% set b = 2 %}",
		many.String(),
		"{% set a = 'left' %}{% set x = caller %}{{ undefined_thing.attr }}",
		"{% set a = 'left' %}{% filter upper %}half{{ 1 / 0 }}{% endfilter %}",
		// keyword arguments left on the call stack, by a call that
		// returned and by one refused half-way
		"{{ dict(" + kws.String() + "z=1)|length }}{{ dict(a=1, b=dict(c=2, d=1 / 0)) }}",
	}
	probes := []string{"[{{ a }}{{ b }}{{ v5 }}]", "{% set c = 3 %}{{ c }}{% filter upper %}x{% endfilter %}", "{{ self }}",
		"{{ dict(x=1, y=dict(z=2)) }}{{ dict(k0=5).k0 }}"}
	want := map[string]string{}
	for _, src := range probes {
		tpl, _ := env.Parse("p", src)
		r, err := tpl.RenderResult(nil, RenderOptions{})
		want[src] = fmt.Sprint(r, err)
	}
	for _, d := range dirty {
		dt, err := env.Parse("d", d)
		if err != nil {
			t.Fatal(err)
		}
		for _, src := range probes {
			_, _ = dt.RenderResult(nil, RenderOptions{})
			tpl, _ := env.Parse("p", src)
			r, err := tpl.RenderResult(nil, RenderOptions{})
			if got := fmt.Sprint(r, err); got != want[src] {
				t.Errorf("after %.30q, %s gave %s, want %s", d, src, got, want[src])
			}
		}
	}
}

// boxSurface is a host object whose attribute is a container it holds
// (as an artefact holds its content fields): a value.Sealer.
type boxSurface struct{ d value.Value }

func (*boxSurface) TypeName() string { return "Box" }
func (*boxSurface) TemplateSurface() {}
func (b *boxSurface) SealData()      { value.Seal(b.d) }
func (b *boxSurface) Attr(_ value.Ctx, name string) (value.Value, bool) {
	if name == "d" {
		return b.d, true
	}
	return value.Value{}, false
}

// TestContextSealsHostObjects: a container a host object holds is sealed
// with the context (value.Sealer), so renders reading it concurrently
// (run with -race) fill no cache on it.
func TestContextSealsHostObjects(t *testing.T) {
	env, _ := NewEnvironment(Options{})
	prepare := func() *Prepared {
		inner, err := ToValue(map[string]any{"xs": []any{"a", map[string]any{"k": 1}}, "n": 2})
		if err != nil {
			t.Fatal(err)
		}
		ctx, err := env.Prepare(map[string]any{"box": &boxSurface{d: inner}, "boxes": []any{&boxSurface{d: inner}}})
		if err != nil {
			t.Fatal(err)
		}
		return ctx
	}
	tpl, err := env.Parse("t", "{{ box.d }}{{ box.d.xs|length }}{{ box.d.xs ~ '' }}{% set ns = namespace(x=box.d.xs) %}{{ ns.x[1] }}{{ boxes[0].d.n }}")
	if err != nil {
		t.Fatal(err)
	}
	// the wanted result from a context of its own: no render runs on
	// the shared one before the concurrent ones
	want, err := tpl.RenderPrepared(prepare(), RenderOptions{})
	if err != nil {
		t.Fatal(err)
	}
	ctx := prepare()
	var wg sync.WaitGroup
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 50 {
				if r, err := tpl.RenderPrepared(ctx, RenderOptions{}); err != nil || r != want {
					t.Errorf("%+v, %v; want %+v", r, err, want)
					return
				}
			}
		}()
	}
	wg.Wait()
}
