package value

import (
	"encoding/json"
	"os"
	"testing"
)

func benchData(b *testing.B, name string) map[string]any {
	raw, err := os.ReadFile("../../testsuite/testdata/shared/bench/workloads/" + name + ".json")
	if err != nil {
		b.Skip(err)
	}
	var m map[string]any
	if err := json.Unmarshal(raw, &m); err != nil {
		b.Fatal(err)
	}
	return fix(m).(map[string]any)
}

func fix(x any) any {
	switch t := x.(type) {
	case map[string]any:
		for k, v := range t {
			t[k] = fix(v)
		}
	case []any:
		for i, v := range t {
			t[i] = fix(v)
		}
	case float64:
		if t == float64(int64(t)) {
			return int(t)
		}
	}
	return x
}

func BenchmarkCopyIn(b *testing.B) {
	for _, w := range []string{"table", "filters", "macro", "prompt", "condition"} {
		data := benchData(b, w)
		b.Run(w, func(b *testing.B) {
			b.ReportAllocs()
			var c Copier
			var d *DictData
			for b.Loop() {
				c.Reset()
				var err error
				d, err = c.CopyMapInto(d, data)
				if err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
