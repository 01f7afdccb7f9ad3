package method

import (
	"context"
	"strings"
	"testing"
)

func TestSampleValidates(t *testing.T) {
	m := loadTestMethod(t, "sample_method.json")
	if err := m.Validate(ValidateOptions{}).Err(); err != nil {
		for _, p := range Problems(err) {
			t.Error(p)
		}
	}
}

// TestBrokenReportsEverything checks that one validation reports every
// problem of the broken sample, each with its pipe and field.
func TestBrokenReportsEverything(t *testing.T) {
	m := loadTestMethod(t, "broken_method.json")
	err := m.Validate(ValidateOptions{}).Err()
	if err == nil {
		t.Fatal("broken method validated")
	}
	probs := Problems(err)
	for _, p := range probs {
		t.Log(p)
	}
	want := []struct{ pipe, field, code, detail string }{
		{"", "main_pipe", CodeUnknownPipe, "start"},
		{"", "concept Ticket field _internal", CodePrivateName, "_internal"},
		{"bad_llm", "prompt", CodeUndeclaredInput, "customer"},
		{"bad_llm", "prompt", CodePrivateName, "_secret"},
		{"bad_llm", "prompt", CodeOptionalUnguarded, "extra"},
		{"bad_llm", "images[0]", CodePrivateName, "__class__"},
		{"bad_llm", "inputs", CodeUnusedInput, "notes"},
		{"bad_compose", "template", CodeUnknownFilter, "with_images"},
		{"bad_compose", "template", CodeUnknownFilter, "shout"},
		{"bad_construct", "construct field 'a'", CodePrivateName, "_secret"},
		{"bad_construct", "construct field 'b'", CodeInvalidPath, "empty segment"},
		{"bad_construct", "construct field 'c'", CodePrivateName, "__class__"},
		{"bad_construct", "construct field 'd.nested'", CodeUndeclaredInput, "missing_var"},
		{"bad_construct", "construct field 'd.nested'", CodeUnknownFilter, "nosuchfilter"},
		{"bad_condition", "expression", CodePrivateName, "__class__"},
		{"bad_condition", "expression", CodeOptionalUnguarded, "maybe"},
		{"bad_condition", `outcomes["x"]`, CodeUnknownPipe, "missing_pipe"},
		{"bad_condition", "default_outcome", CodeInvalidPipe, "required"},
		{"bad_batch", "branch_pipe_code", CodeUnknownPipe, "nowhere"},
		{"bad_batch", "input_list_name", CodePrivateName, "_x"},
		{"bad_batch", "input_item_name", CodeBatchItemCollision, "items"},
		{"bad_sequence", "steps[0]", CodeInvalidPipe, "batch_over"},
		{"bad_syntax", "prompt", CodeSyntax, ""},
	}
	for _, w := range want {
		found := false
		for _, p := range probs {
			if p.Pipe == w.pipe && p.Field == w.field && p.Code == w.code && strings.Contains(p.Message, w.detail) {
				found = true
				break
			}
		}
		if !found {
			t.Errorf("missing problem: pipe %q field %q code %s (%s)", w.pipe, w.field, w.code, w.detail)
		}
	}
	// Deterministic: the same report twice.
	again := Problems(m.Validate(ValidateOptions{}).Err())
	if len(again) != len(probs) {
		t.Fatalf("second validation gave %d problems, first %d", len(again), len(probs))
	}
	for i := range probs {
		if probs[i].Error() != again[i].Error() {
			t.Errorf("report order differs at %d", i)
		}
	}
}

func TestValidatePipeKinds(t *testing.T) {
	tests := []struct {
		name, method string
		codes        []string // expected problem codes, in order; nil: valid
	}{
		{"llm ok", `{"main_pipe": "p", "pipes": {"p": {"type": "PipeLLM", "inputs": {"a": "Text", "o": "Text?"}, "prompt": "@a\n@?o"}}}`, nil},
		// the newest Pipelex refuses an inline "@" naming a declared input
		// (template_preprocessor.py, validate_template_sigils)
		{"llm inline at sigil", `{"main_pipe": "p", "pipes": {"p": {"type": "PipeLLM", "inputs": {"a": "Text"}, "prompt": "see @a now"}}}`, []string{CodeSigilSyntax}},
		{"llm inline at of another word", `{"main_pipe": "p", "pipes": {"p": {"type": "PipeLLM", "inputs": {"a": "Text"}, "prompt": "@media and $a"}}}`, nil},
		{"llm inline-if guard", `{"main_pipe": "p", "pipes": {"p": {"type": "PipeLLM", "inputs": {"o": "Text?"}, "prompt": "{{ o.text if o else 'none' }}{% if o is defined and o.text %}{{ o }}{% endif %}"}}}`, nil},
		{"llm else arm unguarded", `{"main_pipe": "p", "pipes": {"p": {"type": "PipeLLM", "inputs": {"o": "Text?"}, "prompt": "{% if o %}x{% else %}{{ o }}{% endif %}"}}}`, []string{CodeOptionalUnguarded}},
		{"llm or does not guard", `{"main_pipe": "p", "pipes": {"p": {"type": "PipeLLM", "inputs": {"o": "Text?"}, "prompt": "{% if o or 1 %}{{ o }}{% endif %}"}}}`, []string{CodeOptionalUnguarded}},
		{"llm loop var shadows", `{"main_pipe": "p", "pipes": {"p": {"type": "PipeLLM", "inputs": {"l": "Text[]"}, "prompt": "{% for x in l %}{{ x }}{{ loop.index }}{% endfor %}{% set y = 1 %}{{ y }}"}}}`, nil},
		{"llm missing prompt", `{"main_pipe": "p", "pipes": {"p": {"type": "PipeLLM"}}}`, []string{CodeInvalidPipe}},
		{"llm with_images ok", `{"main_pipe": "p", "pipes": {"p": {"type": "PipeLLM", "inputs": {"i": "Image"}, "prompt": "{{ i|with_images }}"}}}`, nil},
		{"compose markdown filter only html", `{"main_pipe": "p", "pipes": {"p": {"type": "PipeCompose", "inputs": {"a": "Text"}, "template": {"category": "markdown", "template": "{{ a|markdown }}"}}}}`, []string{CodeUnknownFilter}},
		{"compose html markdown ok", `{"main_pipe": "p", "pipes": {"p": {"type": "PipeCompose", "inputs": {"a": "Text"}, "template": {"category": "html", "template": "{{ a.text|markdown }}{{ a|escape_script_tag }}"}}}}`, nil},
		{"compose mermaid no tag", `{"main_pipe": "p", "pipes": {"p": {"type": "PipeCompose", "inputs": {"a": "Text"}, "template": {"category": "mermaid", "template": "{{ a|tag }}"}}}}`, []string{CodeUnknownFilter}},
		{"compose bad category", `{"main_pipe": "p", "pipes": {"p": {"type": "PipeCompose", "template": {"category": "llm_prompt", "template": "x"}}}}`, []string{CodeInvalidPipe}},
		{"compose both", `{"main_pipe": "p", "pipes": {"p": {"type": "PipeCompose", "template": "x", "construct": {"a": 1}}}}`, []string{CodeInvalidPipe}},
		// A compose refused for its shape reports that alone: which inputs it
		// reads is unknown (the template used here counts as unused otherwise).
		{"compose both with an input", `{"main_pipe": "p", "pipes": {"p": {"type": "PipeCompose", "inputs": {"a": "Text"}, "template": "{{ a }}", "construct": {"b": 1}}}}`, []string{CodeInvalidPipe}},
		{"compose neither with an input", `{"main_pipe": "p", "pipes": {"p": {"type": "PipeCompose", "inputs": {"a": "Text"}}}}`, []string{CodeInvalidPipe}},
		{"compose bad category with an input", `{"main_pipe": "p", "pipes": {"p": {"type": "PipeCompose", "inputs": {"a": "Text"}, "template": {"category": "llm_prompt", "template": "{{ a }}"}}}}`, []string{CodeInvalidPipe}},
		{"construct from undeclared", `{"main_pipe": "p", "pipes": {"p": {"type": "PipeCompose", "construct": {"a": {"from": "x.y"}}}}}`, []string{CodeUndeclaredInput}},
		{"condition expression no filters", `{"main_pipe": "p", "pipes": {"p": {"type": "PipeCondition", "inputs": {"a": "Text"}, "expression": "a|tag", "outcomes": {"x": "p"}, "default_outcome": "fail"}}}`, []string{CodeUnknownFilter}},
		{"condition continue needs optional output", `{"main_pipe": "p", "pipes": {"p": {"type": "PipeCondition", "inputs": {"a": "Text"}, "output": "Text", "expression": "a", "outcomes": {"x": "continue"}, "default_outcome": "fail"}}}`, []string{CodeInvalidPipe}},
		{"condition both", `{"main_pipe": "p", "pipes": {"p": {"type": "PipeCondition", "inputs": {"a": "Text"}, "expression": "a", "expression_template": "{{ a }}", "outcomes": {"x": "fail"}, "default_outcome": "fail"}}}`, []string{CodeInvalidPipe}},
		{"condition outputs differ", `{"main_pipe": "p", "pipes": {"p": {"type": "PipeCondition", "inputs": {"a": "Text"}, "output": "Text", "expression": "a", "outcomes": {"x": "q"}, "default_outcome": "fail"}, "q": {"type": "PipeImgGen", "inputs": {"a": "Text"}, "output": "Image", "prompt": "$a"}}}`, []string{CodeInvalidPipe}},
		{"batch ok", `{"main_pipe": "p", "pipes": {"p": {"type": "PipeBatch", "inputs": {"l": "Text[]"}, "branch_pipe_code": "p", "input_list_name": "l", "input_item_name": "i"}}}`, nil},
		{"batch same names", `{"main_pipe": "p", "pipes": {"p": {"type": "PipeBatch", "inputs": {"l": "Text[]"}, "branch_pipe_code": "p", "input_list_name": "l", "input_item_name": "l"}}}`, []string{CodeBatchItemCollision, CodeBatchItemCollision}},
		{"judge ok", `{"main_pipe": "p", "pipes": {"p": {"type": "PipeJudge", "inputs": {"a": "Text"}, "output": "YesNo", "prompt": "@a", "question": "Is it polite?", "criteria": {"yes": "kind words", "no": "rude words"}, "threshold": 0.6}}}`, nil},
		{"judge without prompt", `{"main_pipe": "p", "pipes": {"p": {"type": "PipeJudge", "inputs": {"a": "Text"}, "question": "{{ a }}"}}}`, []string{CodeInvalidPipe}},
		{"judge one option", `{"main_pipe": "p", "pipes": {"p": {"type": "PipeJudge", "inputs": {"a": "Text"}, "prompt": "@a", "question": "Which?", "options": {"x": "X"}}}}`, []string{CodeInvalidPipe}},
		{"judge lone criterion", `{"main_pipe": "p", "pipes": {"p": {"type": "PipeJudge", "inputs": {"a": "Text"}, "prompt": "@a", "question": "Ok?", "criteria": {"yes": "fine"}}}}`, []string{CodeInvalidPipe}},
		{"judge output not its kind", `{"main_pipe": "p", "pipes": {"p": {"type": "PipeJudge", "inputs": {"a": "Text"}, "output": "Anything", "prompt": "@a", "question": "Ok?"}}}`, []string{CodeInvalidPipe}},
		{"judge unused input", `{"main_pipe": "p", "pipes": {"p": {"type": "PipeJudge", "inputs": {"a": "Text", "b": "Text"}, "prompt": "@a", "question": "Ok?"}}}`, []string{CodeUnusedInput}},
		{"compose unused input", `{"main_pipe": "p", "pipes": {"p": {"type": "PipeCompose", "inputs": {"a": "Text", "b": "Text"}, "template": "$a"}}}`, []string{CodeUnusedInput}},
		{"compose plural output", `{"main_pipe": "p", "pipes": {"p": {"type": "PipeCompose", "inputs": {"a": "Text"}, "output": "Text[]", "template": "$a"}}}`, []string{CodeInvalidPipe}},
		{"parallel list output", `{"main_pipe": "p", "pipes": {"p": {"type": "PipeParallel", "inputs": {"a": "Text"}, "output": "Text[]", "branches": [{"pipe": "q", "result": "r"}]}, "q": {"type": "PipeCompose", "inputs": {"a": "Text"}, "template": "$a"}}}`, []string{CodeInvalidPipe}},
		{"parallel native output", `{"main_pipe": "p", "pipes": {"p": {"type": "PipeParallel", "inputs": {"a": "Text"}, "output": "Anything", "branches": [{"pipe": "q", "result": "r"}]}, "q": {"type": "PipeCompose", "inputs": {"a": "Text"}, "template": "$a"}}}`, []string{CodeInvalidPipe}},
		{"parallel branch without result", `{"main_pipe": "p", "pipes": {"p": {"type": "PipeParallel", "inputs": {"a": "Text"}, "output": "Composite", "add_each_output": true, "branches": [{"pipe": "q"}]}, "q": {"type": "PipeCompose", "inputs": {"a": "Text"}, "template": "$a"}}}`, []string{CodeInvalidPipe}},
		{"sequence result not an input name", `{"main_pipe": "p", "pipes": {"p": {"type": "PipeSequence", "inputs": {"a": "Text"}, "output": "Text", "steps": [{"pipe": "q", "result": "Draft"}]}, "q": {"type": "PipeCompose", "inputs": {"a": "Text"}, "template": "$a"}}}`, []string{CodeInvalidPipe}},
		{"sequence batch_as not an input name", `{"main_pipe": "p", "pipes": {"p": {"type": "PipeSequence", "inputs": {"xs": "Text[]"}, "output": "Text[]", "steps": [{"pipe": "q", "batch_over": "xs", "batch_as": "X", "result": "ys"}]}, "q": {"type": "PipeCompose", "inputs": {"X": "Text"}, "template": "{{ X }}"}}}`, []string{CodeInvalidPipe, CodeInvalidPipe}},
		{"parallel result not an input name", `{"main_pipe": "p", "pipes": {"p": {"type": "PipeParallel", "inputs": {"a": "Text"}, "output": "Composite", "add_each_output": true, "branches": [{"pipe": "q", "result": "Summary"}]}, "q": {"type": "PipeCompose", "inputs": {"a": "Text"}, "template": "$a"}}}`, []string{CodeInvalidPipe}},
		{"batch item not an input name", `{"main_pipe": "p", "pipes": {"p": {"type": "PipeBatch", "inputs": {"l": "Text[]"}, "branch_pipe_code": "p", "input_list_name": "l", "input_item_name": "Item"}}}`, []string{CodeInvalidPipe}},
		// construct from paths follow the root concept's declared fields
		// (StructuredContentComposer._resolve_dotted_path, which validate's
		// dry run reaches); undeclared shapes are not checked
		{"construct path ok", `{"main_pipe": "p", "concepts": {"Deal": {"fields": [{"name": "customer", "type": "concept", "concept_ref": "Customer", "required": true}, {"name": "amount", "type": "number"}, {"name": "tags", "type": "list", "item_type": "text"}, {"name": "extra", "type": "dict"}]}, "Customer": {"fields": [{"name": "name", "type": "text", "required": true}]}, "Quote": {"fields": [{"name": "who", "type": "text"}]}}, "pipes": {"p": {"type": "PipeCompose", "inputs": {"d": "Deal"}, "output": "Quote", "construct": {"who": {"from": "d.customer.name"}}}}}`, nil},
		{"construct path no such field", `{"main_pipe": "p", "concepts": {"Deal": {"fields": [{"name": "customer", "type": "concept", "concept_ref": "Customer", "required": true}, {"name": "amount", "type": "number"}, {"name": "tags", "type": "list", "item_type": "text"}, {"name": "extra", "type": "dict"}]}, "Customer": {"fields": [{"name": "name", "type": "text", "required": true}]}, "Quote": {"fields": [{"name": "who", "type": "text"}]}}, "pipes": {"p": {"type": "PipeCompose", "inputs": {"d": "Deal"}, "output": "Quote", "construct": {"who": {"from": "d.custmer"}}}}}`, []string{CodeInvalidPath}},
		{"construct path nested no such field", `{"main_pipe": "p", "concepts": {"Deal": {"fields": [{"name": "customer", "type": "concept", "concept_ref": "Customer", "required": true}, {"name": "amount", "type": "number"}, {"name": "tags", "type": "list", "item_type": "text"}, {"name": "extra", "type": "dict"}]}, "Customer": {"fields": [{"name": "name", "type": "text", "required": true}]}, "Quote": {"fields": [{"name": "who", "type": "text"}]}}, "pipes": {"p": {"type": "PipeCompose", "inputs": {"d": "Deal"}, "output": "Quote", "construct": {"who": {"from": "d.customer.nme"}}}}}`, []string{CodeInvalidPath}},
		{"construct path below a scalar", `{"main_pipe": "p", "concepts": {"Deal": {"fields": [{"name": "customer", "type": "concept", "concept_ref": "Customer", "required": true}, {"name": "amount", "type": "number"}, {"name": "tags", "type": "list", "item_type": "text"}, {"name": "extra", "type": "dict"}]}, "Customer": {"fields": [{"name": "name", "type": "text", "required": true}]}, "Quote": {"fields": [{"name": "who", "type": "text"}]}}, "pipes": {"p": {"type": "PipeCompose", "inputs": {"d": "Deal"}, "output": "Quote", "construct": {"who": {"from": "d.amount.x"}}}}}`, nil},
		{"construct path below a dict", `{"main_pipe": "p", "concepts": {"Deal": {"fields": [{"name": "customer", "type": "concept", "concept_ref": "Customer", "required": true}, {"name": "amount", "type": "number"}, {"name": "tags", "type": "list", "item_type": "text"}, {"name": "extra", "type": "dict"}]}, "Customer": {"fields": [{"name": "name", "type": "text", "required": true}]}, "Quote": {"fields": [{"name": "who", "type": "text"}]}}, "pipes": {"p": {"type": "PipeCompose", "inputs": {"d": "Deal"}, "output": "Quote", "construct": {"who": {"from": "d.extra.anything"}}}}}`, nil},
		{"construct path list index", `{"main_pipe": "p", "concepts": {"Deal": {"fields": [{"name": "customer", "type": "concept", "concept_ref": "Customer", "required": true}, {"name": "amount", "type": "number"}, {"name": "tags", "type": "list", "item_type": "text"}, {"name": "extra", "type": "dict"}]}, "Customer": {"fields": [{"name": "name", "type": "text", "required": true}]}, "Quote": {"fields": [{"name": "who", "type": "text"}]}}, "pipes": {"p": {"type": "PipeCompose", "inputs": {"d": "Deal"}, "output": "Quote", "construct": {"who": {"from": "d.tags.0"}}}}}`, nil},
		{"construct path through a list input", `{"main_pipe": "p", "concepts": {"Deal": {"fields": [{"name": "customer", "type": "concept", "concept_ref": "Customer", "required": true}, {"name": "amount", "type": "number"}, {"name": "tags", "type": "list", "item_type": "text"}, {"name": "extra", "type": "dict"}]}, "Customer": {"fields": [{"name": "name", "type": "text", "required": true}]}, "Quote": {"fields": [{"name": "who", "type": "text"}]}}, "pipes": {"p": {"type": "PipeCompose", "inputs": {"d": "Deal[]"}, "output": "Quote", "construct": {"who": {"from": "d.0.customer"}}}}}`, nil},
		{"construct path text input", `{"main_pipe": "p", "concepts": {"Deal": {"fields": [{"name": "customer", "type": "concept", "concept_ref": "Customer", "required": true}, {"name": "amount", "type": "number"}, {"name": "tags", "type": "list", "item_type": "text"}, {"name": "extra", "type": "dict"}]}, "Customer": {"fields": [{"name": "name", "type": "text", "required": true}]}, "Quote": {"fields": [{"name": "who", "type": "text"}]}}, "pipes": {"p": {"type": "PipeCompose", "inputs": {"d": "Text"}, "output": "Quote", "construct": {"who": {"from": "d.text"}}}}}`, nil},
		{"construct path anything", `{"main_pipe": "p", "concepts": {"Deal": {"fields": [{"name": "customer", "type": "concept", "concept_ref": "Customer", "required": true}, {"name": "amount", "type": "number"}, {"name": "tags", "type": "list", "item_type": "text"}, {"name": "extra", "type": "dict"}]}, "Customer": {"fields": [{"name": "name", "type": "text", "required": true}]}, "Quote": {"fields": [{"name": "who", "type": "text"}]}}, "pipes": {"p": {"type": "PipeCompose", "inputs": {"d": "Anything"}, "output": "Quote", "construct": {"who": {"from": "d.whatever"}}}}}`, nil},
		// PipeParallel.validate_output_with_library (pipe_parallel.py)
		{"parallel structured output ok", `{"main_pipe": "p", "concepts": {"Sentiment": {"fields": [{"name": "sentiment", "type": "text", "required": true}, {"name": "confidence", "type": "number", "required": true}, {"name": "explanation", "type": "text"}]}, "Score": {"refines": "Text"}, "Report": {"fields": [{"name": "summary", "type": "concept", "concept_ref": "Summary", "required": true}]}, "Summary": {"fields": [{"name": "text", "type": "text"}]}, "Other": {"fields": [{"name": "x", "type": "text"}]}}, "pipes": {"p": {"type": "PipeParallel", "inputs": {"a": "Text"}, "output": "Sentiment", "branches": [{"pipe": "q", "result": "sentiment"}, {"pipe": "n", "result": "confidence"}, {"pipe": "e", "result": "explanation"}]}, "q": {"type": "PipeCompose", "inputs": {"a": "Text"}, "template": "$a"}, "n": {"type": "PipeLLM", "inputs": {"a": "Text"}, "output": "Number", "prompt": "$a"}, "e": {"type": "PipeLLM", "inputs": {"a": "Text"}, "output": "Text?", "prompt": "$a"}}}`, nil},
		{"parallel required field no branch produces", `{"main_pipe": "p", "concepts": {"Sentiment": {"fields": [{"name": "sentiment", "type": "text", "required": true}, {"name": "confidence", "type": "number", "required": true}, {"name": "explanation", "type": "text"}]}, "Score": {"refines": "Text"}, "Report": {"fields": [{"name": "summary", "type": "concept", "concept_ref": "Summary", "required": true}]}, "Summary": {"fields": [{"name": "text", "type": "text"}]}, "Other": {"fields": [{"name": "x", "type": "text"}]}}, "pipes": {"p": {"type": "PipeParallel", "inputs": {"a": "Text"}, "output": "Sentiment", "branches": [{"pipe": "q", "result": "sentiment"}, {"pipe": "q", "result": "keywords"}]}, "q": {"type": "PipeCompose", "inputs": {"a": "Text"}, "template": "$a"}}}`, []string{CodeInvalidPipe}},
		{"parallel result not a field", `{"main_pipe": "p", "concepts": {"Sentiment": {"fields": [{"name": "sentiment", "type": "text", "required": true}, {"name": "confidence", "type": "number", "required": true}, {"name": "explanation", "type": "text"}]}, "Score": {"refines": "Text"}, "Report": {"fields": [{"name": "summary", "type": "concept", "concept_ref": "Summary", "required": true}]}, "Summary": {"fields": [{"name": "text", "type": "text"}]}, "Other": {"fields": [{"name": "x", "type": "text"}]}}, "pipes": {"p": {"type": "PipeParallel", "inputs": {"a": "Text"}, "output": "Sentiment", "branches": [{"pipe": "q", "result": "sentiment"}, {"pipe": "n", "result": "confidence"}, {"pipe": "q", "result": "keywords"}]}, "q": {"type": "PipeCompose", "inputs": {"a": "Text"}, "template": "$a"}, "n": {"type": "PipeLLM", "inputs": {"a": "Text"}, "output": "Number", "prompt": "$a"}}}`, []string{CodeInvalidPipe}},
		{"parallel branch concept fits field", `{"main_pipe": "p", "concepts": {"Sentiment": {"fields": [{"name": "sentiment", "type": "text", "required": true}, {"name": "confidence", "type": "number", "required": true}, {"name": "explanation", "type": "text"}]}, "Score": {"refines": "Text"}, "Report": {"fields": [{"name": "summary", "type": "concept", "concept_ref": "Summary", "required": true}]}, "Summary": {"fields": [{"name": "text", "type": "text"}]}, "Other": {"fields": [{"name": "x", "type": "text"}]}}, "pipes": {"p": {"type": "PipeParallel", "inputs": {"a": "Text"}, "output": "Report", "branches": [{"pipe": "s", "result": "summary"}]}, "s": {"type": "PipeLLM", "inputs": {"a": "Text"}, "output": "Summary", "prompt": "$a"}}}`, nil},
		{"parallel branch concept does not fit field", `{"main_pipe": "p", "concepts": {"Sentiment": {"fields": [{"name": "sentiment", "type": "text", "required": true}, {"name": "confidence", "type": "number", "required": true}, {"name": "explanation", "type": "text"}]}, "Score": {"refines": "Text"}, "Report": {"fields": [{"name": "summary", "type": "concept", "concept_ref": "Summary", "required": true}]}, "Summary": {"fields": [{"name": "text", "type": "text"}]}, "Other": {"fields": [{"name": "x", "type": "text"}]}}, "pipes": {"p": {"type": "PipeParallel", "inputs": {"a": "Text"}, "output": "Report", "branches": [{"pipe": "o", "result": "summary"}]}, "o": {"type": "PipeLLM", "inputs": {"a": "Text"}, "output": "Other", "prompt": "$a"}}}`, []string{CodeInvalidPipe}},
		{"parallel optional branch feeds required field", `{"main_pipe": "p", "concepts": {"Sentiment": {"fields": [{"name": "sentiment", "type": "text", "required": true}, {"name": "confidence", "type": "number", "required": true}, {"name": "explanation", "type": "text"}]}, "Score": {"refines": "Text"}, "Report": {"fields": [{"name": "summary", "type": "concept", "concept_ref": "Summary", "required": true}]}, "Summary": {"fields": [{"name": "text", "type": "text"}]}, "Other": {"fields": [{"name": "x", "type": "text"}]}}, "pipes": {"p": {"type": "PipeParallel", "inputs": {"a": "Text"}, "output": "Sentiment", "branches": [{"pipe": "e", "result": "sentiment"}, {"pipe": "n", "result": "confidence"}]}, "e": {"type": "PipeLLM", "inputs": {"a": "Text"}, "output": "Text?", "prompt": "$a"}, "n": {"type": "PipeLLM", "inputs": {"a": "Text"}, "output": "Number", "prompt": "$a"}}}`, []string{CodeInvalidPipe}},
		{"parallel composite", `{"main_pipe": "p", "pipes": {"p": {"type": "PipeParallel", "inputs": {"a": "Text"}, "output": "Composite", "add_each_output": true, "branches": [{"pipe": "q", "result": "r"}]}, "q": {"type": "PipeCompose", "inputs": {"a": "Text"}, "template": "$a"}}}`, nil},
		{"sequence multiplicity", `{"main_pipe": "p", "pipes": {"p": {"type": "PipeSequence", "inputs": {"a": "Text"}, "output": "Text", "steps": [{"pipe": "q", "nb_output": 3}]}, "q": {"type": "PipeLLM", "inputs": {"a": "Text"}, "output": "Text", "prompt": "$a"}}}`, []string{CodeInvalidPipe}},
		{"sequence needs an input", `{"main_pipe": "p", "pipes": {"p": {"type": "PipeSequence", "output": "Text", "steps": [{"pipe": "q"}]}, "q": {"type": "PipeLLM", "inputs": {"a": "Text"}, "output": "Text", "prompt": "$a"}}}`, []string{CodeUndeclaredInput}},
		{"batch list is a path", `{"main_pipe": "p", "pipes": {"p": {"type": "PipeBatch", "inputs": {"l": "Anything"}, "branch_pipe_code": "p", "input_list_name": "l.items", "input_item_name": "i"}}}`, []string{CodeInvalidPipe}},
		{"imggen tier with ratio", `{"main_pipe": "p", "pipes": {"p": {"type": "PipeImgGen", "inputs": {"a": "Text"}, "prompt": "$a", "size": "2k", "aspect_ratio": "landscape_8_1"}}}`, nil},
		{"imggen exact size with ratio", `{"main_pipe": "p", "pipes": {"p": {"type": "PipeImgGen", "inputs": {"a": "Text"}, "prompt": "$a", "size": "2048x1152", "aspect_ratio": "square"}}}`, []string{CodeInvalidPipe}},
		{"imggen bad size", `{"main_pipe": "p", "pipes": {"p": {"type": "PipeImgGen", "inputs": {"a": "Text"}, "prompt": "$a", "size": "huge"}}}`, []string{CodeInvalidPipe}},
		{"input name not plain", `{"main_pipe": "p", "pipes": {"p": {"type": "PipeLLM", "inputs": {"Big": "Text"}, "prompt": "{{ Big }}"}}}`, []string{CodeInvalidPipe}},
		{"forced list", `{"main_pipe": "p", "pipes": {"p": {"type": "PipeLLM", "inputs": {"l": "Text[3]!"}, "prompt": "{{ l }}"}}}`, []string{CodeInvalidPipe}},
		{"one item is the single form", `{"main_pipe": "p", "pipes": {"p": {"type": "PipeLLM", "inputs": {"a": "Text[1]?"}, "output": "Text[1]?", "prompt": "{% if a %}{{ a }}{% endif %}"}}}`, nil},
		{"optional list", `{"main_pipe": "p", "pipes": {"p": {"type": "PipeLLM", "inputs": {"l": "Text[]?"}, "prompt": "{% if l %}{{ l }}{% endif %}"}}}`, []string{CodeInvalidPipe}},
		{"func not registered is a run-time failure", `{"main_pipe": "p", "pipes": {"p": {"type": "PipeFunc", "function_name": "nowhere"}}}`, nil},
		{"imggen undeclared", `{"main_pipe": "p", "pipes": {"p": {"type": "PipeImgGen", "prompt": "$style", "negative_prompt": "blurry"}}}`, []string{CodeUndeclaredInput}},
		{"search ok", `{"main_pipe": "p", "pipes": {"p": {"type": "PipeSearch", "inputs": {"q": "Text"}, "prompt": "news about $q", "max_results": 3}}}`, nil},
		{"search structured output", `{"main_pipe": "p", "concepts": {"Brief": {"fields": [{"name": "title", "type": "text"}]}}, "pipes": {"p": {"type": "PipeSearch", "inputs": {"q": "Text"}, "output": "Brief", "prompt": "news about $q"}}}`, nil},
		{"search text output", `{"main_pipe": "p", "pipes": {"p": {"type": "PipeSearch", "inputs": {"q": "Text"}, "output": "Text", "prompt": "news about $q"}}}`, nil},
		{"search leap day", `{"main_pipe": "p", "pipes": {"p": {"type": "PipeSearch", "inputs": {"q": "Text"}, "prompt": "$q", "from_date": "2024-02-29", "to_date": "2024-12-31"}}}`, nil},
		{"search impossible dates", `{"main_pipe": "p", "pipes": {"p": {"type": "PipeSearch", "inputs": {"q": "Text"}, "prompt": "$q", "from_date": "2023-02-29", "to_date": "0000-01-01"}}}`, []string{CodeInvalidPipe, CodeInvalidPipe}},
		{"search date not dashed", `{"main_pipe": "p", "pipes": {"p": {"type": "PipeSearch", "inputs": {"q": "Text"}, "prompt": "$q", "from_date": "20240101"}}}`, []string{CodeInvalidPipe}},
		{"extract ok", `{"main_pipe": "p", "pipes": {"p": {"type": "PipeExtract", "inputs": {"doc": "PDF"}, "output": "native.Page[]"}}}`, nil},
		{"extract refined page output", `{"main_pipe": "p", "concepts": {"Sheet": {"refines": "Page"}}, "pipes": {"p": {"type": "PipeExtract", "inputs": {"doc": "Document"}, "output": "Sheet[]"}}}`, []string{CodeInvalidPipe}},
		{"extract fixed length output", `{"main_pipe": "p", "pipes": {"p": {"type": "PipeExtract", "inputs": {"doc": "Document"}, "output": "Page[2]"}}}`, []string{CodeInvalidPipe}},
		{"extract two inputs", `{"main_pipe": "p", "pipes": {"p": {"type": "PipeExtract", "inputs": {"a": "Document", "b": "Image"}, "output": "Page[]"}}}`, []string{CodeInvalidPipe}},
		{"extract text input", `{"main_pipe": "p", "pipes": {"p": {"type": "PipeExtract", "inputs": {"a": "Text"}, "output": "Page[]"}}}`, []string{CodeInvalidPipe}},
		{"extract image with page views", `{"main_pipe": "p", "pipes": {"p": {"type": "PipeExtract", "inputs": {"a": "Image"}, "output": "Page[]", "page_views": true}}}`, []string{CodeInvalidPipe}},
		{"unknown type", `{"main_pipe": "p", "pipes": {"p": {"type": "PipeMagic"}}}`, []string{CodeInvalidPipe}},
		{"unknown concept", `{"main_pipe": "p", "pipes": {"p": {"type": "PipeSearch", "inputs": {"q": "Nope"}, "prompt": "{{ q }}"}}}`, []string{CodeUnknownConcept}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			m, err := LoadJSON([]byte(tc.method))
			if err != nil {
				t.Fatal(err)
			}
			probs := Problems(m.Validate(ValidateOptions{}).Err())
			var got []string
			for _, p := range probs {
				got = append(got, p.Code)
			}
			if strings.Join(got, ",") != strings.Join(tc.codes, ",") {
				for _, p := range probs {
					t.Log(p)
				}
				t.Errorf("codes %v, want %v", got, tc.codes)
			}
		})
	}
}

func TestValidateJSON(t *testing.T) {
	if _, err := ValidateJSON([]byte(`{"main_pipe": 3}`), ValidateOptions{}); len(Problems(err)) != 1 || Problems(err)[0].Code != CodeInvalidMethod {
		t.Errorf("bad JSON: %v", err)
	}
	m, err := ValidateJSON([]byte(`{"main_pipe": "p", "pipes": {"p": {"type": "PipeBatch", "branch_pipe_code": "p", "input_list_name": "l", "input_item_name": "i"}}}`), ValidateOptions{})
	if m == nil || len(Problems(err)) != 1 || Problems(err)[0].Code != CodeUndeclaredInput {
		t.Errorf("got %v", err)
	}
}

// TestValidateFuncRegistry: given the registry, an unregistered
// function_name is an error, as when Pipelex builds a PipeFunc; without
// it, the name is the run's question (the "func not registered" case).
func TestValidateFuncRegistry(t *testing.T) {
	reg := NewFuncRegistry()
	if err := reg.Register("known", func(context.Context, FuncCall) (any, error) { return "x", nil }); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, fn string
		codes    []string
	}{
		{"registered", "known", nil},
		{"not registered", "nowhere", []string{CodeInvalidPipe}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := mustMethod(t, `{"main_pipe": "p", "pipes": {"p": {"type": "PipeFunc", "output": "Text", "function_name": "`+tc.fn+`"}}}`)
			var got []string
			for _, p := range Problems(m.Validate(ValidateOptions{Funcs: reg}).Err()) {
				got = append(got, p.Code+" "+p.Field)
			}
			want := []string{}
			for _, c := range tc.codes {
				want = append(want, c+" function_name")
			}
			if strings.Join(got, ",") != strings.Join(want, ",") {
				t.Errorf("got %v, want %v", got, want)
			}
		})
	}
}

// TestSearchStructuredOutputRuns: a PipeSearch whose output is not a
// SearchResult asks for, and gets, that concept's fields (Pipelex's
// is_structured_output).
func TestSearchStructuredOutputRuns(t *testing.T) {
	m := mustMethod(t, `{"main_pipe": "p", "concepts": {"Brief": {"fields": [{"name": "title", "type": "text"}, {"name": "year", "type": "integer"}]}}, "pipes": {"p": {"type": "PipeSearch", "inputs": {"q": "Text"}, "output": "Brief", "prompt": "news about $q"}}}`)
	res, err := (&Runner{Library: m, Provider: LocalProvider{Simulate: true}}).Run(context.Background(), mustInputs(t, `{"q": "tides"}`))
	if err != nil {
		t.Fatal(err)
	}
	got := contentJSON(t, res.Output)
	if !strings.Contains(got, `"title":`) || !strings.Contains(got, `"year":`) {
		t.Errorf("structured search output %s, want the fields of Brief", got)
	}
}
