package workflows

import (
	"errors"
	"strconv"
	"strings"

	"go.uber.org/multierr"
)

// Problem codes reported by ValidateMethod.
const (
	CodeSyntax             = "syntax_error"
	CodePrivateName        = "template_private_name"
	CodeUndeclaredInput    = "undeclared_input"
	CodeUnusedInput        = "unused_input"
	CodeOptionalUnguarded  = "optional_input_unguarded"
	CodeUnknownFilter      = "unknown_filter"
	CodeTemplate           = "template_error"
	CodeInvalidPath        = "invalid_path"
	CodeUnknownPipe        = "unknown_pipe"
	CodeUnknownConcept     = "unknown_concept"
	CodeInvalidPipe        = "invalid_pipe"
	CodeBatchItemCollision = "batch_item_name_collision"
	CodeInvalidMethod      = "invalid_method"
)

// Problem is one validation finding, naming the pipe and the field
// (prompt, system_prompt, template, expression, expression_template,
// construct field '<path>', images[i], input_list_name, ...).
type Problem struct {
	Pipe    string
	Field   string
	Code    string
	Message string
	// Line and Col locate template problems (1-based; 0 when unknown).
	Line, Col int
}

func (p *Problem) Error() string {
	var sb strings.Builder
	if p.Pipe != "" {
		sb.WriteString("pipe " + strconv.Quote(p.Pipe))
	} else {
		sb.WriteString("method")
	}
	if p.Field != "" {
		sb.WriteString(", " + p.Field)
	}
	if p.Line > 0 {
		sb.WriteString(" (line " + strconv.Itoa(p.Line) + ", col " + strconv.Itoa(p.Col) + ")")
	}
	sb.WriteString(": " + p.Code + ": " + p.Message)
	return sb.String()
}

// Problems lists the problems in an error returned by ValidateMethod, in
// report order.
func Problems(err error) []*Problem {
	var out []*Problem
	for _, e := range multierr.Errors(err) {
		var p *Problem
		if errors.As(e, &p) {
			out = append(out, p)
		}
	}
	return out
}
