package engine

import (
	"context"
	"errors"
	"runtime"
	"strings"
	"testing"

	"github.com/jinjabox/jinjabox/engine/value"
)

// lazyOps read a long string s (and a plain copy t of its text) every way
// a template can: each must print the same whether s is a lazy string (a
// repetition or a capture of at least value.LazyMin bytes) or the plain
// string the host handed in.
var lazyOps = []string{
	`{{ s|length }}`, `{{ s|count }}`, `{{ 'y' if s else 'n' }}`, `{{ s[:7] }}|{{ s[-5:] }}|{{ s[3] }}`,
	`{{ s == t }}{{ s != t }}{{ t == s }}{{ s < t ~ 'a' }}{{ s > 'a' }}`, `{{ (s ~ '!')[-3:] }}`,
	`{{ (s + s)|length }}`, `{{ {s: 1}[t] }}{{ {t: 2}[s] }}`, `{{ s in [t] }}{{ t in [s] }}{{ 'ab' in s }}{{ 'zz' in s }}`,
	`{{ s|upper|length }}{{ (s|upper)[:4] }}`, `{{ s.count('ab') }}`, `{{ s|e|length }}`, `{{ s|safe|length }}`,
	`{{ s|truncate(10) }}{{ s|truncate(100000000)|length }}`, `{{ s|string|length }}`, `{{ (s * 2)|length }}`,
	`{{ [s]|unique|list|length }}{{ [s, t]|unique|list|length }}`, `{{ s.startswith('ab') }}{{ s.endswith(t[-4:]) }}`,
	`{{ s|wordcount }}`, `{{ s|reverse|first }}{{ s|first }}{{ s|last }}`, `{{ (s, 1) in [(t, 1)] }}`,
	`{{ s|replace('b', 'c')|length }}`, `{{ s is string }}{{ s is sameas t }}`, `{{ s|tojson|length }}`,
	`{{ s.split('\u00e9')|length }}`, `{% for c in s[:4] %}{{ c }}{% endfor %}`, `{{ dict(k=s).k|length }}`,
	`{{ '%s'|format(s)|length }}`, `{{ s }}`, `{{ s|pprint|length }}`,
	`{{ s.zfill(3)|length }}{{ s.rjust(2)|length }}{{ s.center(1)[:3] }}{{ s.ljust(1)[-2:] }}`,
	`{{ s.expandtabs()|length }}{{ (s ~ '\t' ~ s).expandtabs(4)|length }}`,
	`{{ t.join(['x', 'y'])|length }}{{ s.join(['x', 'y'])[-3:] }}{{ 'x'.join([s, t])|length }}`,
	`{{ (s ~ s)|length }}{{ (s ~ t)[-3:] }}{{ ((s ~ '%s') % 'q')[-4:] }}`,
	`{{ s.upper()[:4] }}{{ s.strip('a')[:3] }}{{ s.partition('é')[0] }}{{ s.find('cd') }}`,
	`{{ s.splitlines()|length }}{{ s.split()|length }}{{ s.format()|length }}`,
}

// TestLazyStringsChargedBeforeBuilt: an operation reading a lazy string's
// text charges its read first, from the length the lazy string knows, and
// builds the text only once charged. A 120 MB repetition read by an
// operation the budget then refuses was built first (90 MB and 23,000
// first-touched pages before the hostile corpus's split case was
// refused, 290 ms of CPU on a VM where a page fault costs 11 us);
// refused first, it is never built.
func TestLazyStringsChargedBeforeBuilt(t *testing.T) {
	env, err := NewEnvironment(Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, op := range []string{
		`s.split()`, `s.rsplit()`, `s.split('b')`, `s.splitlines()`, `s.startswith('a')`, `s.endswith('a')`,
		`s.zfill(10)`, `s.rjust(10)`, `s.ljust(10)`, `s.center(10)`, `s.expandtabs()`, `s.join(['a', 'b'])`,
		`'x'.join([s, s])`, `s[3]`, `s[5:]`, `s[::-1]`, `s ~ s`, `s ~ 'x' ~ s`, `s % ()`, `s == s`, `s.upper()`,
		`s.title()`, `s.strip()`, `s.replace('a', 'b')`, `s.partition('z')`, `s.find('z')`, `s.count('a')`,
		`s.format()`, `s.translate({})`, `s.isalpha()`, `s.removeprefix('a')`, `s is sameas s`,
	} {
		tmpl, err := env.Parse("t", `{% set s = 'ab ' * 40000000 %}{{ (`+op+`) is defined }}`)
		if err != nil {
			t.Fatal(err)
		}
		var rerr error
		grew := allocated(func() { _, rerr = tmpl.Render(nil) })
		if e := (*Error)(nil); !errors.As(rerr, &e) || e.Kind != KindBudget {
			t.Errorf("%s on a 120 MB repetition: %v, want a budget error", op, rerr)
		}
		if grew > 16<<20 {
			t.Errorf("%s on a 120 MB repetition allocated %d MB before its refusal: the text was built", op, grew>>20)
		}
	}
}

func TestLazyStringsReadAsPlain(t *testing.T) {
	const unit = "ab\u00e9cd"                                // 6 bytes, 5 code points
	n := value.LazyMin/len(unit) + 7                         // at least LazyMin bytes
	text := strings.Repeat(unit, n)                          // the text every s holds
	big := strings.Repeat(unit, value.LazyMin/len(unit)/8+1) // a capture's piece, held by reference
	reps := (len(text) + len(big) - 1) / len(big)
	captureText := strings.Repeat(big, reps)
	makers := []struct{ name, set, text string }{
		{"repetition", `{% set s = u * n %}`, text},
		{"concatenation", `{% set s = u * (n - 3) + u * 3 %}`, text},
		{"concatenation of halves", `{% set s = u * (n // 2) + u * (n - n // 2) %}`, text},
		{"capture", `{% set s %}{% for i in range(reps) %}{{ big }}{% endfor %}{% endset %}`, captureText},
		{"macro", `{% macro m() %}{% for i in range(reps) %}{{ big }}{% endfor %}{% endmacro %}{% set s = m() %}`, captureText},
	}
	for _, autoescape := range []bool{false, true} {
		env, err := NewEnvironment(Options{Autoescape: autoescape})
		if err != nil {
			t.Fatal(err)
		}
		for _, mk := range makers {
			for _, op := range lazyOps {
				data := map[string]any{"u": unit, "n": n, "reps": reps, "big": big, "t": mk.text}
				plain, err := env.Parse("plain", op)
				if err != nil {
					t.Fatal(err)
				}
				ps := any(mk.text)
				if autoescape && !strings.HasPrefix(mk.name, "repetition") && !strings.HasPrefix(mk.name, "concatenation") {
					// a capture under autoescape is markup, as Jinja2's Markup
					ps = value.Safe(mk.text)
				}
				want, werr := plain.Render(withS(data, ps))
				lazy, err := env.Parse("lazy", mk.set+op)
				if err != nil {
					t.Fatal(err)
				}
				got, gerr := lazy.Render(data)
				if (werr == nil) != (gerr == nil) || got != want {
					t.Errorf("autoescape %v, %s, %s: got %.80q (%v), want %.80q (%v)", autoescape, mk.name, op, got, gerr, want, werr)
				}
			}
		}
	}
}

func withS(data map[string]any, s any) map[string]any {
	out := map[string]any{"s": s}
	for k, v := range data {
		out[k] = v
	}
	return out
}

// TestLazyStringsStayLazy holds the point of them: a long repetition or
// capture that is only measured or tested for truth is never built.
func TestLazyStringsStayLazy(t *testing.T) {
	env, err := NewEnvironment(Options{})
	if err != nil {
		t.Fatal(err)
	}
	tmpl, err := env.Parse("t", `{% set s = 'x' * 60000000 %}{{ s|length }}{{ 'y' if s }}{{ s|truncate(100000000)|length }}`)
	if err != nil {
		t.Fatal(err)
	}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	out, err := tmpl.Render(nil)
	runtime.ReadMemStats(&after)
	if err != nil || out != "60000000y60000000" {
		t.Fatalf("got %q, %v", out, err)
	}
	if grew := after.TotalAlloc - before.TotalAlloc; grew > 8<<20 {
		t.Errorf("a measured 60 MB repetition allocated %d MB: it was built", grew>>20)
	}
	// a concatenation of two 20 MB strings, measured, is not built either
	tmpl, err = env.Parse("t", `{% set h = 'x' * 20000000 %}{{ h|length }}{% set s = h + h %}{{ s|length }}{{ 'y' if s }}`)
	if err != nil {
		t.Fatal(err)
	}
	runtime.ReadMemStats(&before)
	out, err = tmpl.Render(nil)
	runtime.ReadMemStats(&after)
	if err != nil || out != "2000000040000000y" {
		t.Fatalf("got %q, %v", out, err)
	}
	// h is built (its text is a part of s); s, twice its size, is not
	if grew := after.TotalAlloc - before.TotalAlloc; grew > 28<<20 {
		t.Errorf("a measured 40 MB concatenation of a 20 MB string allocated %d MB: it was built", grew>>20)
	}
}

// TestLazyStringAfterCancel: a lazy string the host reads after its
// render ended builds without polling the render's context, even when
// that context is cancelled by then; inside the render, its build polls.
func TestLazyStringAfterCancel(t *testing.T) {
	env, err := NewEnvironment(Options{})
	if err != nil {
		t.Fatal(err)
	}
	tmpl, err := env.Parse("t", `{% set s = 'ab' * 1000000 %}{{ s|length }}`)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	v, err := tmpl.RenderValue(map[string]any{}, RenderOptions{Context: ctx})
	cancel()
	if err != nil {
		t.Fatal(err)
	}
	if got, err := v.Export(); err != nil || got != "2000000" {
		t.Fatalf("export: %v, %v", got, err)
	}
	// inside the render, a build polls: a context cancelled once the
	// render started ends it with the cancellation, never the output
	lazy, err := env.Parse("t", `{% set s = 'ab' * 30000000 %}{{ s[5:9] }}`)
	if err != nil {
		t.Fatal(err)
	}
	_, err = lazy.RenderValue(map[string]any{}, RenderOptions{Context: &errAfter{Context: context.Background(), n: 1}})
	if err == nil || !errors.Is(err, ErrCanceled) {
		t.Fatalf("a render cancelled before its lazy string was read: %v", err)
	}
}

// errAfter is a context whose Err is nil n times, then Canceled.
type errAfter struct {
	context.Context
	n int
}

func (c *errAfter) Err() error {
	if c.n > 0 {
		c.n--
		return nil
	}
	return context.Canceled
}

// TestCaptureJoinPolls: a capture of small writes (no reference, so no
// lazy string) is joined at its end polling the render every pollBytes,
// so a cancellation during the join of 100 MB waits for a megabyte, not
// the whole copy; a join of a pollBytes or less does not poll.
func TestCaptureJoinPolls(t *testing.T) {
	for _, size := range []int{pollBytes, 3*pollBytes + 12345} {
		b := outBuf{refs: true}
		line := strings.Repeat("0123456789", 10)
		var want strings.Builder
		for want.Len() < size {
			b.writeString(line)
			want.WriteString(line)
		}
		polls := 0
		got := b.join(func() { polls++ })
		if got != want.String() {
			t.Fatalf("size %d: the join differs from what was written", size)
		}
		if wantPolls := want.Len() / pollBytes; want.Len() <= pollBytes && polls != 0 || want.Len() > pollBytes && polls != wantPolls {
			t.Errorf("size %d: %d polls, want %d", want.Len(), polls, wantPolls)
		}
	}
}
