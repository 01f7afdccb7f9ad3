package engine_test

import (
	"errors"
	"fmt"
	"os"
	"strings"
	"testing/fstest"

	"github.com/jinjabox/jinjabox/budget"
	"github.com/jinjabox/jinjabox/engine"
	"github.com/jinjabox/jinjabox/engine/value"
	"github.com/jinjabox/jinjabox/godata"
)

// Parse once, render many times: a parsed Template is immutable and safe
// for concurrent renders. Data is copied in through the boundary, so the
// template sees plain values only, never your Go objects.
func Example() {
	env, err := engine.NewEnvironment(engine.Options{Autoescape: true})
	if err != nil {
		panic(err)
	}
	tpl, err := env.Parse("greeting", "Hello {{ user.name | title }}! {{ note }}")
	if err != nil {
		panic(err) // a *engine.Error of kind syntax or security
	}
	out, err := tpl.Render(map[string]any{
		"user": map[string]any{"name": "ada lovelace"},
		"note": "<b>escaped</b>",
	})
	if err != nil {
		panic(err)
	}
	fmt.Println(out)
	// Output: Hello Ada Lovelace! &lt;b&gt;escaped&lt;/b&gt;
}

// RenderResult reports the work units a render spent beside its output.
// Units are deterministic: the same template, data and options spend the
// same units on every run and every machine, so a host can cap, bill or
// compare by them (Temporal replay relies on it).
func ExampleTemplate_RenderResult() {
	env, err := engine.NewEnvironment(engine.Options{})
	if err != nil {
		panic(err)
	}
	tpl, err := env.Parse("list", "{% for f in fruits %}{{ loop.index }}. {{ f }}\n{% endfor %}")
	if err != nil {
		panic(err)
	}
	data := map[string]any{"fruits": []any{"apple", "pear"}}
	ro := engine.RenderOptions{Limits: budget.Limits{WorkUnits: 1 << 20, OutputBytes: 64 << 10}}
	res, err := tpl.RenderResult(data, ro)
	if err != nil {
		panic(err)
	}
	again, err := tpl.RenderResult(data, ro)
	if err != nil {
		panic(err)
	}
	fmt.Print(res.Output)
	fmt.Println("units spent:", res.Units > 0, "same on every render:", res.Units == again.Units)
	// Output:
	// 1. apple
	// 2. pear
	// units spent: true same on every render: true
}

// RenderValue returns the typed value of a template that is a lone
// {{ expression }}, instead of its text: here an int and a list.
func ExampleTemplate_RenderValue() {
	env, err := engine.NewEnvironment(engine.Options{})
	if err != nil {
		panic(err)
	}
	data := map[string]any{"items": []any{
		map[string]any{"name": "pen", "price": 3},
		map[string]any{"name": "ink", "price": 12},
	}}
	for _, src := range []string{
		"{{ items | sum(attribute='price') }}",
		"{{ items | selectattr('price', 'gt', 5) | map(attribute='name') | list }}",
	} {
		tpl, err := env.Parse("expr", src)
		if err != nil {
			panic(err)
		}
		v, err := tpl.RenderValue(data, engine.RenderOptions{})
		if err != nil {
			panic(err)
		}
		fmt.Println(v.Kind(), value.Repr(v))
	}
	// Output:
	// int 15
	// list ['ink']
}

// Limits bound each render: work units, source size, syntax-tree size,
// nesting depth, output bytes, scratch memory and capability calls. A
// render that would overdraw is refused before the big allocation or the
// long loop happens, with a budget error naming the limit.
func ExampleRenderOptions_limits() {
	env, err := engine.NewEnvironment(engine.Options{})
	if err != nil {
		panic(err)
	}
	ro := engine.RenderOptions{Limits: budget.Limits{WorkUnits: 100_000, OutputBytes: 1 << 10}}
	for _, src := range []string{
		"{{ 'ab' * 1000000000 }}",                   // refused before allocating 2 GB
		"{% for i in range(100000) %}.{% endfor %}", // the loop would overdraw the work units
		"{{ 'x' * 2000 }}",                          // more output than 1 KiB
	} {
		_, err := env.RenderString("t", src, nil, ro)
		var e *engine.Error
		if errors.As(err, &e) && e.Kind == engine.KindBudget {
			fmt.Println(e.Kind, e.BudgetError().Limit)
		}
	}
	// Output:
	// budget work_units
	// budget work_units
	// budget output_bytes
}

// Every failure is an *engine.Error: a kind, the template name, line and
// column, and a bounded one-line message that never holds a data value.
// A failed render returns no output at all.
func ExampleError() {
	env, err := engine.NewEnvironment(engine.Options{})
	if err != nil {
		panic(err)
	}
	for _, src := range []string{
		"{{ user.__class__ }}",
		"line 1\n{{ 1 / count }}",
		"{% for x in items %}{{ x }}",
	} {
		out, err := env.RenderString("page.html", src, map[string]any{"count": 0, "user": "ada"}, engine.RenderOptions{})
		var e *engine.Error
		if errors.As(err, &e) {
			fmt.Printf("%s error at %s:%d:%d: %s (output %q)\n", e.Kind, e.Name, e.Line, e.Col, e.Message, out.Output)
		}
	}
	// Output:
	// security error at page.html:1:8: access to attribute "__class__" is unsafe (output "")
	// render error at page.html:2:4: division by zero (output "")
	// syntax error at page.html:1:26: Unexpected end of template. Jinja was looking for the following tags: 'endfor' or 'else'. The innermost block that needs to be closed is 'for'. (output "")
}

// A trusted in-memory template set serves include, import, extends and
// from. It is for the application's own templates: an untrusted template
// may only reach the names in the set, and what they spend comes out of
// the including render's budget.
func ExampleOptions_templates() {
	env, err := engine.NewEnvironment(engine.Options{Templates: map[string]string{
		"layout.html": "<h1>{% block title %}{% endblock %}</h1>{% block body %}{% endblock %}",
		"macros.html": "{% macro badge(text) %}[{{ text | upper }}]{% endmacro %}",
	}})
	if err != nil {
		panic(err)
	}
	page := `{% extends "layout.html" %}{% import "macros.html" as m %}` +
		`{% block title %}{{ title }}{% endblock %}{% block body %}{{ m.badge("new") }}{% endblock %}`
	res, err := env.RenderString("page", page, map[string]any{"title": "Release"}, engine.RenderOptions{})
	if err != nil {
		panic(err)
	}
	fmt.Println(res.Output)
	_, err = env.RenderString("probe", `{% include "/etc/passwd" %}`, nil, engine.RenderOptions{})
	fmt.Println(err)
	// Output:
	// <h1>Release</h1>[NEW]
	// render error in probe:1:4: template not found: "/etc/passwd"
}

// Prepare copies data in once; a template rendered for every item of a
// batch renders from the prepared context, and WithPath binds each item
// without copying the shared data again. A context is immutable: the
// update returns a new one, and later changes to the caller's maps are
// never seen.
func ExampleEnvironment_Prepare() {
	env, err := engine.NewEnvironment(engine.Options{})
	if err != nil {
		panic(err)
	}
	tpl, err := env.Parse("line", "{{ shop.name }}: {{ item.name }} x{{ item.qty }}")
	if err != nil {
		panic(err)
	}
	shared := map[string]any{"shop": map[string]any{"name": "Corner"}}
	pd, err := env.Prepare(shared) // copied once, under the copy-in ceilings
	if err != nil {
		panic(err)
	}
	shared["shop"] = "changed later" // the prepared data keeps its own copy
	for _, item := range []any{
		map[string]any{"name": "pen", "qty": 2},
		map[string]any{"name": "ink", "qty": 1},
	} {
		c, err := pd.WithPath([]string{"item"}, item) // shares "shop"
		if err != nil {
			panic(err)
		}
		res, err := tpl.RenderPrepared(c, engine.RenderOptions{})
		if err != nil {
			panic(err)
		}
		fmt.Println(res.Output)
	}
	_, err = pd.WithPath([]string{"shop", "_secret"}, 1)
	fmt.Println(err)
	// Output:
	// Corner: pen x2
	// Corner: ink x1
	// security error: path segment "_secret" starts with an underscore: private names are not readable
}

// RenderTo writes a successful render's output to a writer in one write;
// a refused render writes nothing (fail-stop).
func ExampleTemplate_RenderTo() {
	env, err := engine.NewEnvironment(engine.Options{})
	if err != nil {
		panic(err)
	}
	pd, err := env.Prepare(map[string]any{"n": 3})
	if err != nil {
		panic(err)
	}
	tpl, err := env.Parse("t", "n is {{ n }}.")
	if err != nil {
		panic(err)
	}
	var out strings.Builder // any io.Writer; a file, a bufio.Writer
	if _, err := tpl.RenderTo(&out, pd, engine.RenderOptions{}); err != nil {
		panic(err)
	}
	bad, err := env.Parse("bad", "n is {{ n }}, {{ n.x.y }}")
	if err != nil {
		panic(err)
	}
	_, err = bad.RenderTo(&out, pd, engine.RenderOptions{})
	fmt.Printf("%q, refused: %v\n", out.String(), err != nil)
	// Output:
	// "n is 3.", refused: true
}

// Execute renders any render data to a writer; a Go struct becomes data
// through godata.Map (encoding/json's field names and tags), copied once.
func ExampleTemplate_Execute() {
	type Item struct {
		Name  string `json:"name"`
		Price int    `json:"price"`
	}
	type Order struct {
		ID    int     `json:"id"`
		Items []Item  `json:"items"`
		Note  *string `json:"note"`
	}
	var env engine.Environment // the zero Environment: Jinja2's defaults
	tpl, err := env.Parse("order", "#{{ id }}: {{ items | map(attribute='name') | join(', ') }} ({{ note or 'no note' }})")
	if err != nil {
		panic(err)
	}
	data, err := godata.Map(Order{ID: 7, Items: []Item{{"pen", 3}, {"ink", 12}}})
	if err != nil {
		panic(err)
	}
	if _, err := tpl.Execute(os.Stdout, data, engine.RenderOptions{}); err != nil {
		panic(err)
	}
	// Output:
	// #7: pen, ink (no note)
}

// A filter the application registers returns its value or an error; the
// error fails the render (no partial output) and errors.Is reaches it.
func ExampleFilter() {
	errNoRate := errors.New("no exchange rate for this currency")
	rates := map[string]float64{"EUR": 1.08, "GBP": 1.27}
	env, err := engine.NewEnvironment(engine.Options{Filters: map[string]engine.Filter{
		"usd": func(_ value.Ctx, v engine.Value, args *value.Args) (engine.Value, error) {
			if args.Len() != 1 || len(args.Pos) != 1 || !args.Pos[0].IsString() || !v.IsNumber() {
				return engine.Value{}, errors.New("usd() takes a number and one currency name")
			}
			rate, ok := rates[args.Pos[0].Str()]
			if !ok {
				return engine.Value{}, errNoRate
			}
			return value.FromFloat(v.Float() * rate), nil
		},
	}})
	if err != nil {
		panic(err)
	}
	for _, cur := range []string{"EUR", "JPY"} {
		res, err := env.RenderString("price", "{{ (amount | usd(cur)) | round(2) }} USD", map[string]any{"amount": 10, "cur": cur}, engine.RenderOptions{})
		fmt.Printf("%q %v\n", res.Output, errors.Is(err, errNoRate))
	}
	// Output:
	// "10.8 USD" false
	// "" true
}

// A template set read from a file system (os.DirFS, embed.FS), rendered
// by name.
func ExampleEnvironment_Template() {
	env, err := engine.NewEnvironment(engine.Options{FS: fstest.MapFS{
		"base.html": {Data: []byte("<title>{% block title %}{% endblock %}</title>")},
		"page.html": {Data: []byte(`{% extends "base.html" %}{% block title %}{{ name | title }}{% endblock %}`)},
	}})
	if err != nil {
		panic(err)
	}
	tpl, err := env.Template("page.html")
	if err != nil {
		panic(err)
	}
	out, err := tpl.Render(map[string]any{"name": "ada lovelace"})
	if err != nil {
		panic(err)
	}
	fmt.Println(out)
	// Output: <title>Ada Lovelace</title>
}

// The regular-expression filters (Ansible's names and results, RE2
// syntax) are off unless the environment enables them.
func ExampleOptions_regex() {
	env, err := engine.NewEnvironment(engine.Options{Regex: true})
	if err != nil {
		panic(err)
	}
	for _, src := range []string{
		`{{ 'v=7.12.0' | regex_search('(\\d+)\\.(\\d+)', '\\1', '\\2') }}`,
		`{{ 'a1b22c333' | regex_findall('\\d+') }}`,
		`{{ 'Hello World' | regex_replace('(\\w+) (\\w+)', '\\2 \\1') }}`,
		`{{ ('a' * 100000 ~ '!') | regex_search('(a+)+$') }}`,
		`{{ 'aa' | regex_search('(a)\\1') }}`,
	} {
		res, err := env.RenderString("t", src, nil, engine.RenderOptions{})
		if err != nil {
			fmt.Println(err.(*engine.Error).Message)
			continue
		}
		fmt.Println(res.Output)
	}
	// Output:
	// ['7', '12']
	// ['1', '22', '333']
	// World Hello
	// None
	// regex_search(): regular expression uses a backreference "\\1", which jinjabox's regular expressions (RE2 syntax, linear time) do not support
}
