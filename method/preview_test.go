package method

import (
	"context"
	"strings"
	"testing"

	"github.com/jinjabox/jinjabox/method/templating"
)

// TestPreview: a template renders with the Pipelex layer as the pipe it
// would sit in renders it: sigils, the category's filters and escaping,
// the style, images; an input the template does not use is no problem,
// what a pipe would be refused for is, and concepts resolve in the
// domain given.
func TestPreview(t *testing.T) {
	inputs, err := LoadInputs([]byte(`{"ticket": "My <b>invoice</b> is wrong", "name": "Ada", "unused": "x",
		"pic": {"concept": "Image", "content": "https://example.com/a.png"}}`))
	if err != nil {
		t.Fatal(err)
	}
	ticks := &templating.Style{TagStyle: templating.TagTicks, TextFormat: templating.FormatPlain}
	tests := []struct {
		name string
		req  PreviewRequest
		want string // the text, or the error's substring after "error: "
		imgs int
	}{
		{"prompt sigils", PreviewRequest{Template: "For $name:\n@ticket\n{{ pic|with_images }}"}, "For Ada:\n<ticket>\nMy <b>invoice</b> is wrong\n</ticket>\n[Image 1]", 1},
		{"prompt style", PreviewRequest{Template: "{{ name|tag('who') }}", Style: ticks}, "who: ```\nAda\n```", 0},
		{"html escapes", PreviewRequest{Template: "<p>$ticket</p>", Category: templating.HTML}, "<p>My &lt;b&gt;invoice&lt;/b&gt; is wrong</p>", 0},
		{"basic has no with_images", PreviewRequest{Template: "{{ pic|with_images }}", Category: templating.Basic}, "error: unknown_filter", 0},
		{"inline at sigil refused", PreviewRequest{Template: "see @ticket now"}, "error: template_sigil_syntax", 0},
		{"undeclared", PreviewRequest{Template: "{{ nope }}"}, "error: undeclared_input", 0},
		{"expression is no preview", PreviewRequest{Template: "x", Category: templating.Expression}, "error: category \"expression\"", 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := Preview(context.Background(), nil, tt.req, inputs)
			if want, isErr := strings.CutPrefix(tt.want, "error: "); isErr {
				if err == nil || !strings.Contains(err.Error(), want) {
					t.Fatalf("error %v, want %q", err, want)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if r.Text != tt.want || len(r.Images) != tt.imgs {
				t.Errorf("got %q with %d images, want %q with %d", r.Text, len(r.Images), tt.want, tt.imgs)
			}
		})
	}
	// A domain's concepts: the structured input reads as its fields.
	b, err := LoadBundle([]byte(`{"domain": "support", "concepts": {"Ticket": {"fields": [{"name": "subject", "type": "text"}]}}, "pipes": {}}`))
	if err != nil {
		t.Fatal(err)
	}
	mem, err := LoadInputs([]byte(`{"t": {"concept": "Ticket", "content": {"subject": "Hi"}}}`))
	if err != nil {
		t.Fatal(err)
	}
	r, err := Preview(context.Background(), []*Bundle{b}, PreviewRequest{Template: "{{ t.subject }}", Domain: "support"}, mem)
	if err != nil || r.Text != "Hi" {
		t.Errorf("in the domain: %q, %v", r.Text, err)
	}
	if _, err := Preview(context.Background(), []*Bundle{b}, PreviewRequest{Template: "{{ t.subject }}"}, mem); err == nil {
		t.Error("a concept of a domain resolved outside it")
	}
}
