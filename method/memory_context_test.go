package method

import (
	"errors"
	"fmt"
	"strconv"
	"sync"
	"testing"

	"github.com/jinjabox/jinjabox/engine"
	"github.com/jinjabox/jinjabox/engine/value"
	"github.com/jinjabox/jinjabox/method/templating"
)

// contextLibrary has a structured concept with an Image field, so the
// render context holds image values inside artefacts.
const contextLibrary = `{"main_pipe": "p", "concepts": {"Card": {"fields": [{"name": "title", "type": "text"}, {"name": "photo", "type": "Image"}]}},
	"pipes": {"p": {"type": "PipeCompose", "inputs": {"doc": "Text"}, "template": "{{ doc }}"}}}`

// contextBase is a memory with a text, a list and a structured stuff.
func contextBase() *Memory {
	return NewMemory(
		Stuff{Name: "doc", Concept: "Text", Content: NormalizeContent("Text", "the document")},
		Stuff{Name: "tags", Concept: "Text[]", Content: NormalizeContent("Text[]", []any{"a", "b", "c"})},
		Stuff{Name: "card", Concept: "Card", Content: &value.OrderedMap{Keys: []string{"title", "photo", "meta"},
			Values: []any{"T", &value.OrderedMap{Keys: []string{"url"}, Values: []any{"https://x/c.png"}},
				map[string]any{"n": 1, "tags": []any{"x", map[string]any{"y": 2}}}}}},
	)
}

// contextTemplates read every kind of entry, the item, the extra
// context, and fail in each phase: a parse error, a render error.
var contextTemplates = []string{
	"{{ doc }}|{{ tags|length }}|{{ tags[1]._stuff_code }}|{{ card.title }}|{{ card.photo|with_images }}",
	"{{ it.text if it is defined else '-' }}|{{ k|default('') }}|{{ nested|default('') }}|{{ doc._stuff_name if doc is defined else '' }}",
	"{{ tags }}{{ card }}{{ card.iter_items()|list|length }}{% set ns = namespace(t=tags) %}{{ ns.t|length }}",
	"{{ card.meta }}{{ card.meta.tags|length }}{% set ns = namespace(m=card.meta) %}{% set ns.t = card.meta.tags %}{{ ns.m.n }}{{ ns.t|last }}",
	"{% if %}",
	"{{ 1 / 0 }}",
}

// referenceRender is a render that copies the memory's TemplateData
// (plus extra context, inputs winning) in, every name of it: what every
// render of the runner was before memories kept prepared contexts. A
// render copies in only the names its template reads, so a refusal of
// the others is the copy of the whole data's (engine.ToValue, the same
// ceilings and messages), after the parse, before the render.
func referenceRender(mem *Memory, concepts Concepts, extra map[string]any, src string) (templating.Rendered, int, error) {
	data, err := mem.TemplateData(concepts)
	if err != nil {
		return templating.Rendered{}, 0, err
	}
	for _, k := range sortedKeys(extra) {
		if _, taken := data[k]; !taken {
			data[k] = extra[k]
		}
	}
	out, err := (&templating.Environments{}).Render(templating.LLMPrompt, templating.Style{}, "t", src, data, templating.RenderConfig{})
	var e *engine.Error
	if errors.As(err, &e) && e.Kind == engine.KindSyntax {
		return out, dataCount(data), err
	}
	if _, verr := engine.ToValue(data); verr != nil {
		return templating.Rendered{}, dataCount(data), verr
	}
	return out, dataCount(data), err
}

// contextRender renders from the memory's context as RenderJob.Inline
// does: its error first, then the parse, then a refused copy-in.
func contextRender(envs *templating.Environments, mem *Memory, key *Concepts, extra map[string]any, src string) (templating.Rendered, int, error) {
	tc := mem.renderContext(key, extra)
	if tc.err != nil {
		return templating.Rendered{}, 0, tc.err
	}
	t, err := envs.Parse(templating.LLMPrompt, templating.Style{}, "t", src, templating.RenderConfig{})
	if err != nil {
		return templating.Rendered{}, tc.values, err
	}
	if tc.refused != nil {
		return templating.Rendered{}, tc.values, tc.refused
	}
	out, err := templating.RenderPrepared(t, tc.ctx, templating.RenderConfig{})
	return out, tc.values, err
}

// TestTemplateContextRendersAsData: a render from a memory's prepared
// context (built, or derived from the memory it was made from by With)
// gives the output, images, units, error and bound values of a render
// that copies the memory's data in, with and without extra context,
// when the copy-in refuses the data too.
func TestTemplateContextRendersAsData(t *testing.T) {
	lib := mustMethod(t, contextLibrary)
	key := lib.conceptsKey()
	warm := func(m *Memory) *Memory { m.templateContext(key); return m }
	item := Stuff{Name: "it", Concept: "Text", Content: NormalizeContent("Text", "the item")}
	chain := warm(contextBase())
	for i := range maxDerive + 4 {
		chain = chain.With(Stuff{Name: "s" + strconv.Itoa(i), Concept: "Text", Content: NormalizeContent("Text", "x")})
	}
	big := func(n int) []any {
		l := make([]any, n)
		for i := range l {
			l[i] = NormalizeContent("Text", "t")
		}
		return l
	}
	over := NewMemory(Stuff{Name: "zz", Concept: "Text[]", Content: big(value.MaxContainerEntries + 1)})
	full := NewMemory(Stuff{Name: "zz", Concept: "Text[]", Content: big(value.MaxGraphEntries - 10)})
	extras := []map[string]any{
		nil,
		{"aa": make([]any, 20)}, // sorts first; passes the graph ceiling with "full"
		{"k": 1, "doc": "shadowed", "nested": map[string]any{"a": []any{1, 2}}},
		{"_x": 2, "k": "private names bind"},
	}
	memories := []struct {
		name string
		mem  *Memory
		// big: a memory at the ceilings, rendered with the first two
		// templates and extras only (each reference render copies it)
		big bool
		// refused: every render of it fails (with the extras of big)
		refused bool
	}{
		{name: "built", mem: contextBase()},
		{name: "derived: an item added", mem: warm(contextBase()).With(item)},
		{name: "derived from an unwarmed memory", mem: contextBase().With(item)},
		{name: "a stuff replaced", mem: warm(contextBase()).With(Stuff{Name: "doc", Concept: "Text", Content: NormalizeContent("Text", "new")})},
		{name: "a chain longer than maxDerive", mem: chain},
		{name: "a private name", mem: warm(contextBase()).With(Stuff{Name: "_p", Concept: "Text", Content: NormalizeContent("Text", "p")})},
		{name: "an item that is not data", mem: warm(contextBase()).With(Stuff{Name: "it", Concept: "Anything", Content: make(chan int)}), refused: true},
		{name: "a list past the container ceiling", mem: warm(over).With(item), big: true, refused: true},
		{name: "a graph at the ceiling", mem: warm(full).With(item), big: true},
	}
	for _, m := range memories {
		ex, srcs := extras, contextTemplates
		if m.big {
			ex, srcs = extras[:2], []string{contextTemplates[1], contextTemplates[4]}
		}
		for i, extra := range ex {
			envs := &templating.Environments{}
			for _, src := range srcs {
				want, wantN, wantErr := referenceRender(m.mem, lib.Concepts(), extra, src)
				got, gotN, gotErr := contextRender(envs, m.mem, key, extra, src)
				if fmt.Sprint(got) != fmt.Sprint(want) || gotN != wantN || fmt.Sprint(gotErr) != fmt.Sprint(wantErr) {
					t.Errorf("%s, extra %d, %q:\n got %+v, %d values, %v\nwant %+v, %d values, %v", m.name, i, src, got, gotN, gotErr, want, wantN, wantErr)
				}
				// the cases are what they say: the ceilings refuse, the rest renders
				if ok := src != "{% if %}" && src != "{{ 1 / 0 }}"; ok && (gotErr != nil) != (m.refused || m.big && i == 1) {
					t.Errorf("%s, extra %d, %q: error %v", m.name, i, src, gotErr)
				}
			}
		}
	}
}

// TestTemplateContextDerives: a memory made by With from one whose
// context is prepared shares it, so a batch item's context costs the
// item: the shared list's artefacts are the same objects, not copies.
func TestTemplateContextDerives(t *testing.T) {
	lib := mustMethod(t, contextLibrary)
	key := lib.conceptsKey()
	shared := contextBase()
	base := shared.templateContext(key)
	a := shared.With(Stuff{Name: "it", Concept: "Text", Content: NormalizeContent("Text", "1")}).templateContext(key)
	b := shared.With(Stuff{Name: "it", Concept: "Text", Content: NormalizeContent("Text", "2")}).templateContext(key)
	if a.ctx == nil || b.ctx == nil || a.ctx.Len() != base.ctx.Len()+1 {
		t.Fatalf("derived contexts %+v %+v from %+v", a, b, base)
	}
	if shared.templateContext(key) != base {
		t.Error("the shared memory's context was built again")
	}
	env := templating.NewSet()
	tpl, err := env.Parse(templating.Basic, templating.Style{}, "t", "{{ it.text }}", templating.RenderConfig{})
	if err != nil {
		t.Fatal(err)
	}
	for want, tc := range map[string]*templateContext{"1": a, "2": b} {
		if out, err := templating.RenderPrepared(tpl, tc.ctx, templating.RenderConfig{}); err != nil || out.Text != want {
			t.Errorf("item %s renders %q, %v", want, out.Text, err)
		}
	}
	// an item's context costs the item, whatever the shared memory holds:
	// building it would make an artefact per item of the shared list
	long := make([]any, 1000)
	for i := range long {
		long[i] = NormalizeContent("Text", "t")
	}
	big := NewMemory(Stuff{Name: "l", Concept: "Text[]", Content: long})
	big.templateContext(key)
	it := Stuff{Name: "it", Concept: "Text", Content: NormalizeContent("Text", "i")}
	if n := testing.AllocsPerRun(20, func() { big.With(it).templateContext(key) }); n > 60 {
		t.Errorf("an item over a 1,000-item shared list allocates %.0f times", n)
	}
	// a context under other concepts is built, not taken from the cache
	other := Concepts{}
	if c := shared.templateContext(&other); c == base || c.concepts != &other {
		t.Error("the cache ignored the concepts")
	}
}

// TestTemplateContextConcurrentItems (run it with -race): the items of a
// batch render at once from one shared memory's context. Each goroutine
// derives its items' contexts (and one memory's first build races), then
// all render together: every render reads the caches of the shared
// containers and artefacts (sizes, data-only marks), which the prepared
// context filled when it was sealed, and gives the output of a render
// copying its data in. The templates are parsed first, so no lock orders
// one goroutine's render after another's, and each round has a shared
// memory of its own, whose caches only its renders could fill.
func TestTemplateContextConcurrentItems(t *testing.T) {
	lib := mustMethod(t, contextLibrary)
	key := lib.conceptsKey()
	const rounds, goroutines, items = 20, 4, 8
	item := func(i int) Stuff {
		return Stuff{Name: "it", Concept: "Text", Content: NormalizeContent("Text", "item "+strconv.Itoa(i))}
	}
	envs := &templating.Environments{}
	tpls := make([]*engine.Template, len(contextTemplates))
	want := make([][]string, goroutines*items)
	for i := range want {
		for _, src := range contextTemplates {
			out, _, err := referenceRender(contextBase().With(item(i)), lib.Concepts(), nil, src)
			want[i] = append(want[i], fmt.Sprint(out, err))
		}
	}
	for j, src := range contextTemplates {
		tpls[j], _ = envs.Parse(templating.LLMPrompt, templating.Style{}, "t", src, templating.RenderConfig{})
	}
	errc := make(chan string, rounds*goroutines*items*len(contextTemplates))
	for range rounds {
		shared, cold := contextBase(), contextBase()
		shared.templateContext(key)
		var ready, done sync.WaitGroup
		start := make(chan struct{})
		for g := range goroutines {
			ready.Add(1)
			done.Go(func() {
				cold.With(item(g)).templateContext(key)
				tcs := make([]*templateContext, items)
				for i := range tcs {
					tcs[i] = shared.With(item(g*items + i)).templateContext(key)
				}
				ready.Done()
				<-start
				for i, tc := range tcs {
					for j, tpl := range tpls {
						got := fmt.Sprint(templating.Rendered{}, tc.err)
						if tpl == nil {
							_, err := envs.Parse(templating.LLMPrompt, templating.Style{}, "t", contextTemplates[j], templating.RenderConfig{})
							got = fmt.Sprint(templating.Rendered{}, err)
						} else if tc.err == nil {
							out, err := templating.RenderPrepared(tpl, tc.ctx, templating.RenderConfig{})
							got = fmt.Sprint(out, err)
						}
						if w := want[g*items+i][j]; got != w {
							errc <- fmt.Sprintf("item %d, %q: %s, copying the data in %s", g*items+i, contextTemplates[j], got, w)
						}
					}
				}
			})
		}
		ready.Wait()
		close(start)
		done.Wait()
	}
	close(errc)
	for e := range errc {
		t.Error(e)
	}
}
