package method

import (
	"slices"

	"github.com/jinjabox/jinjabox/method/templating"
)

// Pipe is one pipe of a bundle. Type names its kind (see Kinds); the
// fields every kind shares are declared here, each kind's own fields in
// its kind file, embedded so that a pipe reads and encodes flat. A field
// of another kind set on a pipe is a validation problem.
type Pipe struct {
	// Type is the kind ("PipeLLM", ...). A pipe without a type is a
	// PipeSignature: a declared contract (inputs, output) with no body,
	// valid but not runnable.
	Type        string `json:"type,omitempty"`
	Description string `json:"description,omitempty"`
	// Inputs maps input name to concept spec ("Text", "Ticket[]",
	// "Text?" for optional), in name order.
	Inputs map[string]string `json:"inputs,omitempty"`
	// Output is the output concept spec ("Reply", "Reply[]", "Text?").
	Output string `json:"output,omitempty"`
	// TemplatingStyle overrides the bundle's for this pipe's templates.
	TemplatingStyle *templating.Style `json:"templating_style,omitempty"`

	// Prompt is the main template of the prompted kinds (PipeLLM,
	// PipeImgGen, PipeSearch; PipeJudge's older synonym of question).
	Prompt string `json:"prompt,omitempty"`
	// Model is a model reference: "$preset", "@alias", "~waterfall" or a
	// model id, resolved through ModelConfig (the kinds with Kind.Model).
	Model string `json:"model,omitempty"`
	// ModelSettings are the other keys of a model table
	// (model = { model = "...", temperature = 0.2 }) and the kind's
	// provider settings, passed to the provider as they are.
	ModelSettings map[string]any `json:"model_settings,omitempty"`

	LLMFields
	ComposeFields
	ConditionFields
	BatchFields
	SequenceFields
	ParallelFields
	JudgeFields
	ImgGenFields
	SearchFields
	ExtractFields
	FuncFields
}

// Step is one step of a PipeSequence, or one branch of a PipeParallel.
type Step struct {
	Pipe string `json:"pipe"`
	// Result names the step's output in working memory (default: the
	// pipe code).
	Result string `json:"result,omitempty"`
	// BatchOver and BatchAs run the step once per item (both or neither).
	BatchOver string `json:"batch_over,omitempty"`
	BatchAs   string `json:"batch_as,omitempty"`
	// NbOutput asks the step's pipe for exactly this many outputs, and
	// MultipleOutput for a list of any length (Pipelex's step output
	// multiplicity; one or the other).
	NbOutput       int  `json:"nb_output,omitempty"`
	MultipleOutput bool `json:"multiple_output,omitempty"`
}

// outputOverride is the output spec a step asks of its pipe ("" when it
// asks nothing): the pipe's concept with the step's multiplicity.
func (s Step) outputOverride(pipeOutput string) string {
	if s.NbOutput == 0 && !s.MultipleOutput {
		return ""
	}
	spec := ParseConceptSpec(pipeOutput)
	spec.List, spec.Count, spec.Optional, spec.Required = true, s.NbOutput, false, false
	return spec.String()
}

// resultName is where a step's output is stored.
func (s Step) resultName() string {
	if s.Result != "" {
		return s.Result
	}
	_, code := SplitPipeRef(s.Pipe)
	return code
}

// InputNames returns a pipe's input names, sorted (determinism).
func (p *Pipe) InputNames() []string { return sortedKeys(p.Inputs) }

// outputOr is the pipe's output spec, defaulting to def.
func (p *Pipe) outputOr(def string) string {
	if p.Output != "" {
		return p.Output
	}
	return def
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	//workflowcheck:ignore the keys are sorted below
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
