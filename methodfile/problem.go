package methodfile

import (
	"errors"
	"strconv"
	"strings"

	"go.uber.org/multierr"

	"github.com/jinjabox/jinjabox/workflows"
)

// Problem codes of the loader, beside workflows' validation codes.
const (
	// CodeTOML: the file is not a TOML 1.0 document.
	CodeTOML = "toml_syntax"
	// CodeUnknownKey: a key the method shape does not have (a misspelt
	// template field must not be silently ignored).
	CodeUnknownKey = "unknown_key"
	// CodeType: a key holds the wrong kind of value.
	CodeType = "wrong_type"
)

// Problem is one finding about a method file: where (file, line, column),
// which pipe (empty for the method's own keys and concepts), which field,
// a code (CodeTOML, CodeUnknownKey, CodeType or a workflows Code*) and
// a message. Line is a line of the file, also for problems inside a
// template.
type Problem struct {
	File  string
	Line  int
	Col   int
	Pipe  string
	Field string
	Code  string
	// Message says what is wrong.
	Message string
}

func (p *Problem) Error() string {
	var sb strings.Builder
	sb.WriteString(p.File)
	if p.Line > 0 {
		sb.WriteString(":" + strconv.Itoa(p.Line))
		if p.Col > 0 {
			sb.WriteString(":" + strconv.Itoa(p.Col))
		}
	}
	sb.WriteString(": ")
	if p.Pipe != "" {
		sb.WriteString("pipe " + strconv.Quote(p.Pipe))
	} else {
		sb.WriteString("method")
	}
	if p.Field != "" {
		sb.WriteString(", " + p.Field)
	}
	sb.WriteString(": " + p.Code + ": " + p.Message)
	return sb.String()
}

// Problems lists the problems in an error returned by this package, in
// report order (file order for the loader's, then validation's).
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

// fromWorkflows converts a validation problem.
func fromWorkflows(file string, wp *workflows.Problem) *Problem {
	return &Problem{File: file, Pipe: wp.Pipe, Field: wp.Field, Code: wp.Code, Message: wp.Message}
}
