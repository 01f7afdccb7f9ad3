package methodfile

import (
	"encoding/json"
	"os"
	"testing"

	"github.com/jinjabox/jinjabox/method"
)

// TestSampleMatchesJSON: the .mthds sample is the JSON sample written as
// a method file; both run to the same output with the same requests.
func TestSampleMatchesJSON(t *testing.T) {
	mt, err := LoadFile("testdata/sample_method.mthds")
	if err != nil {
		for _, p := range method.Problems(err) {
			t.Error(p)
		}
		t.Fatal(err)
	}
	mj, err := LoadFile("../method/testdata/sample_method.json")
	if err != nil {
		t.Fatal(err)
	}
	run := func(m *method.Library, inputs string) (string, string) {
		data, err := os.ReadFile(inputs)
		if err != nil {
			t.Fatal(err)
		}
		mem, err := method.LoadInputs(data)
		if err != nil {
			t.Fatal(err)
		}
		res, err := runBothWays(t, &method.Runner{Library: m, Provider: method.LocalProvider{}}, m.Main, mem)
		if err != nil {
			t.Fatal(err)
		}
		out, _ := json.Marshal(plainOf(res.Output.Content))
		reqs, _ := json.Marshal(res.Requests)
		return string(out), string(reqs)
	}
	o1, r1 := run(mt, "testdata/sample_inputs.json")
	o2, r2 := run(mj, "../method/testdata/sample_inputs.json")
	if o1 != o2 {
		t.Errorf("outputs differ:\n mthds %s\n json  %s", o1, o2)
	}
	if r1 != r2 {
		t.Errorf("requests differ:\n mthds %s\n json  %s", r1, r2)
	}
}
