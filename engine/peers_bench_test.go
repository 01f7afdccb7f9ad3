package engine

import "testing"

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
