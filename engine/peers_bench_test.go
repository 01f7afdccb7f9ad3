package engine

import (
	"os"
	"strings"
	"testing"
)

// BenchmarkPeersCondition is the peers harness's condition render row
// (../shared/bench/peers, go/jinjabox_test.go): Render of a
// map[string]any decoded as the harness decodes it (integral numbers
// int, others float64), so the data is copied in on every render.
func BenchmarkPeersCondition(b *testing.B) {
	env, err := NewEnvironment(Options{})
	if err != nil {
		b.Fatal(err)
	}
	tpl, err := env.Parse("condition", `{{ 'yes' if (score > 0.7 and 'urgent' in tags) else 'no' }}`)
	if err != nil {
		b.Fatal(err)
	}
	data := map[string]any{
		"channel": "email",
		"score":   0.82,
		"tags":    []any{"billing", "urgent", "eu"},
		"user":    "u-1234",
	}
	b.ReportAllocs()
	for b.Loop() {
		out, err := tpl.Render(data)
		if err != nil || out != "yes" {
			b.Fatal(out, err)
		}
	}
}

// BenchmarkPeersBigtext is the peers harness's bigtext render row next to
// the floor of any Go engine that returns its output as a fresh string:
// the workload's text and values written into a new string each
// iteration and nothing else, one allocation an output ("floor-alloc")
// or cut from a slab of 16 outputs, as jinjabox's render does
// ("floor-slab", outBuf.own). The write into fresh memory is most of
// either; the same bytes copied into one buffer used again ("hot-copy",
// what a string builder could do if the string were not kept) is a
// fraction. nunjucks returns a V8 rope it never flattens, and Jinja2's
// join reuses the one block its allocator hands back each time.
func BenchmarkPeersBigtext(b *testing.B) {
	src, err := os.ReadFile("../testsuite/testdata/shared/bench/workloads/bigtext.j2")
	if err != nil {
		b.Skip(err)
	}
	data := map[string]any{"author": "A. N. Author", "date": "2024-06-01", "footer": "Copyright Example Widgets Ltd",
		"title": "The Widget Handbook", "version": "3.1.4"}
	env, err := NewEnvironment(Options{})
	if err != nil {
		b.Fatal(err)
	}
	tpl, err := env.Parse("bigtext", string(src))
	if err != nil {
		b.Fatal(err)
	}
	want, err := tpl.Render(data)
	if err != nil {
		b.Fatal(err)
	}
	// the output's pieces: the text between the {{ name }}s and the
	// values (Jinja2 drops the source's one trailing newline)
	var parts []string
	rest := strings.TrimSuffix(string(src), "\n")
	for {
		i := strings.Index(rest, "{{")
		if i < 0 {
			parts = append(parts, rest)
			break
		}
		j := strings.Index(rest, "}}")
		parts = append(parts, rest[:i], data[strings.TrimSpace(rest[i+2:j])].(string))
		rest = rest[j+2:]
	}
	if strings.Join(parts, "") != want {
		b.Fatal("the pieces do not make the output")
	}
	var sink string
	b.Run("jinjabox", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			sink, _ = tpl.Render(data)
		}
	})
	b.Run("floor-alloc", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			var sb strings.Builder
			sb.Grow(len(want))
			for _, p := range parts {
				sb.WriteString(p)
			}
			sink = sb.String()
		}
	})
	b.Run("floor-slab", func(b *testing.B) {
		b.ReportAllocs()
		var sb strings.Builder
		for b.Loop() {
			if sb.Cap()-sb.Len() < len(want) {
				sb = strings.Builder{}
				sb.Grow(slabOutputs * len(want))
			}
			base := sb.Len()
			for _, p := range parts {
				sb.WriteString(p)
			}
			sink = sb.String()[base:]
		}
	})
	b.Run("hot-copy", func(b *testing.B) {
		buf := make([]byte, 0, len(want))
		for b.Loop() {
			buf = buf[:0]
			for _, p := range parts {
				buf = append(buf, p...)
			}
		}
		sink = string(buf[:1])
	})
	_ = sink
}
