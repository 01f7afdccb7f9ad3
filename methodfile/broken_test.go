package methodfile

import (
	"os"
	"strings"
	"testing"

	"github.com/jinjabox/jinjabox/method"
)

// TestBrokenReportsEverything: one load of broken.mthds reports every
// problem, each with the file, line, pipe, field and code, in file order;
// and every line marked "# <-" in the file has one.
func TestBrokenReportsEverything(t *testing.T) {
	const path = "testdata/broken.mthds"
	_, err := LoadFileWith(path, Options{Models: modelConfig(t)})
	probs := method.Problems(err)
	if len(probs) == 0 {
		t.Fatal("broken method loaded")
	}
	want := []struct {
		line        int
		pipe, field string
		code        string
	}{
		{3, "", `domain`, "invalid_method"},
		{6, "", `version`, "unknown_key"},
		{9, "", `concept lowercase`, "invalid_concept"},
		{10, "", `concept Text`, "invalid_method"},
		{14, "", `concept Order refines`, "unknown_concept"},
		{20, "", `concept Item field price type`, "invalid_concept"},
		{21, "", `concept Item field supplier`, "unknown_concept"},
		{22, "", `concept Item field pair`, "invalid_concept"},
		{22, "", `concept Item field pair`, "invalid_concept"},
		{23, "", `concept Item field class`, "invalid_concept"},
		{24, "", `concept Item field size`, "invalid_concept"},
		{25, "", `concept Item field count`, "invalid_concept"},
		{26, "", `concept Item field colour.colour`, "unknown_key"},
		{32, "start", `inputs`, "unknown_concept"},
		{33, "start", `output`, "unknown_concept"},
		{36, "start", `steps[1]`, "unknown_pipe"},
		{37, "start", `steps[2]`, "invalid_pipe"},
		{43, "summarise", `definition`, "unknown_key"},
		{44, "summarise", `inputs`, "unused_input"},
		{46, "summarise", `model`, "invalid_pipe"},
		{50, "summarise", `prompt`, "undeclared_input"},
		{51, "summarise", `prompt`, "template_private_name"},
		{58, "unclosed", `output`, "invalid_pipe"},
		{61, "unclosed", `template`, "syntax_error"},
		{74, "fan_out", `output`, "invalid_pipe"},
		{75, "fan_out", `branches[0]`, "template_private_name"},
		{84, "decide", `options`, "invalid_pipe"},
		{85, "decide", `threshold`, "invalid_pipe"},
		{85, "decide", `threshold`, "invalid_pipe"},
		{93, "draw", `aspect_ratio`, "invalid_pipe"},
		{94, "draw", `size`, "invalid_pipe"},
		{102, "look_up", `from_date`, "invalid_pipe"},
		{103, "look_up", `max_results`, "wrong_type"},
		{108, "read", `inputs`, "invalid_pipe"},
		{116, "render", `model`, "unknown_key"},
		{120, "render", `construct field 'bad'`, "template_private_name"},
		{121, "render", `construct field 'text'`, "unknown_filter"},
		{129, "route", `outcomes["big"]`, "unknown_pipe"},
		{130, "route", `default_outcome`, "invalid_pipe"},
		{139, "each", `input_item_name`, "batch_item_name_collision"},
		{139, "each", `input_item_name`, "batch_item_name_collision"},
		{142, "strange", `type`, "invalid_pipe"},
		{148, "untyped", `prompt`, "invalid_pipe"},
	}
	for i, p := range probs {
		if p.File != path {
			t.Errorf("problem %d names file %q", i, p.File)
		}
		if i >= len(want) {
			t.Errorf("unexpected: %v", p)
			continue
		}
		w := want[i]
		if p.Line != w.line || p.Pipe != w.pipe || p.Field != w.field || p.Code != w.code {
			t.Errorf("problem %d:\n got %v\nwant line %d, pipe %q, field %q, %s", i, p, w.line, w.pipe, w.field, w.code)
		}
	}
	if len(probs) < len(want) {
		t.Errorf("%d problems, want %d", len(probs), len(want))
	}
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lines := map[int]bool{}
	for _, p := range probs {
		lines[p.Line] = true
	}
	for i, l := range strings.Split(string(src), "\n") {
		if strings.Contains(l, "# <-") && !lines[i+1] {
			t.Errorf("line %d is marked but has no problem: %s", i+1, l)
		}
	}
}

// TestTOMLErrors: a file that is not TOML reports one problem with the
// position of the syntax error.
func TestTOMLErrors(t *testing.T) {
	tests := []struct {
		name, src string
		line, col int
		detail    string
	}{
		{"duplicate key", "domain = \"a\"\ndomain = \"b\"\n", 2, 1, "already defined"},
		{"unclosed string", "domain = \"a\n", 1, 12, "new lines"},
		{"redefined table", "[pipe.a]\ntype = \"PipeLLM\"\n[pipe.a]\n", 3, 2, ""},
		{"bad value", "domain = \"d\"\n\n[pipe.x]\ntype = PipeLLM\n", 4, 8, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Load("m.mthds", []byte(tc.src), Options{})
			probs := method.Problems(err)
			if len(probs) != 1 || probs[0].Code != method.CodeTOML || probs[0].File != "m.mthds" {
				t.Fatalf("want one toml_syntax problem, got %v", err)
			}
			if probs[0].Line != tc.line || (tc.col > 0 && probs[0].Col != tc.col) || !strings.Contains(probs[0].Message, tc.detail) {
				t.Errorf("got %v, want line %d col %d with %q", probs[0], tc.line, tc.col, tc.detail)
			}
		})
	}
}
