package method

import (
	"errors"
	"sort"
	"strconv"
	"strings"

	"go.uber.org/multierr"
)

// Problem codes. A code says what kind of rule a problem breaks; the
// rule table of docs/methodfiles.md names the Pipelex function each rule
// mirrors.
const (
	CodeSyntax            = "syntax_error"
	CodePrivateName       = "template_private_name"
	CodeUndeclaredInput   = "undeclared_input"
	CodeUnusedInput       = "unused_input"
	CodeOptionalUnguarded = "optional_input_unguarded"
	CodeUnknownFilter     = "unknown_filter"
	CodeTemplate          = "template_error"
	// CodeSigilSyntax is Pipelex's TemplateSigilSyntaxError: an inline
	// "@" sigil naming a declared input (templating.ValidateSigils).
	CodeSigilSyntax        = "template_sigil_syntax"
	CodeInvalidPath        = "invalid_path"
	CodeUnknownPipe        = "unknown_pipe"
	CodeUnknownConcept     = "unknown_concept"
	CodeInvalidPipe        = "invalid_pipe"
	CodeBatchItemCollision = "batch_item_name_collision"
	CodeInvalidMethod      = "invalid_method"
	CodeInvalidConcept     = "invalid_concept"
	CodeDuplicate          = "duplicate"
	// CodeMissingMethod is the warning for an address reference whose
	// method is not installed: the pipes that need it are skipped.
	CodeMissingMethod = "missing_method"
	// CodeLegacyFormat is the warning on a .plx file: the newest Pipelex
	// loads .mthds files only.
	CodeLegacyFormat = "legacy_format"
	// The file-format codes of package methodfile.
	CodeTOML       = "toml_syntax"
	CodeUnknownKey = "unknown_key"
	CodeType       = "wrong_type"
)

// Severity says whether a problem makes a library invalid.
type Severity int

// The severities. The zero value is an error.
const (
	SeverityError Severity = iota
	SeverityWarning
)

func (s Severity) String() string {
	if s == SeverityWarning {
		return "warning"
	}
	return "error"
}

// MarshalText writes the severity's name (JSON reports).
func (s Severity) MarshalText() ([]byte, error) { return []byte(s.String()), nil }

// Problem is one finding about a method: where it is (file, line and
// column when it came from a file), which pipe (domain and code; empty
// for a bundle's own keys and its concepts), which field, a code and a
// message. Without a file, Line and Col locate the problem inside the
// field's template.
type Problem struct {
	File     string   `json:"file,omitempty"`
	Line     int      `json:"line,omitempty"`
	Col      int      `json:"col,omitempty"`
	Domain   string   `json:"domain,omitempty"`
	Pipe     string   `json:"pipe,omitempty"`
	Field    string   `json:"field,omitempty"`
	Code     string   `json:"code"`
	Severity Severity `json:"severity"`
	Message  string   `json:"message"`
}

func (p *Problem) Error() string {
	var sb strings.Builder
	if p.File != "" {
		sb.WriteString(p.File)
		if p.Line > 0 {
			sb.WriteString(":" + strconv.Itoa(p.Line))
			if p.Col > 0 {
				sb.WriteString(":" + strconv.Itoa(p.Col))
			}
		}
		sb.WriteString(": ")
	}
	if p.Severity == SeverityWarning {
		sb.WriteString("warning: ")
	}
	switch {
	case p.Pipe != "" && p.Domain != "":
		sb.WriteString("pipe " + strconv.Quote(p.Domain+"."+p.Pipe))
	case p.Pipe != "":
		sb.WriteString("pipe " + strconv.Quote(p.Pipe))
	case p.Domain != "":
		sb.WriteString("domain " + strconv.Quote(p.Domain))
	default:
		sb.WriteString("method")
	}
	if p.Field != "" {
		sb.WriteString(", " + p.Field)
	}
	if p.File == "" && p.Line > 0 {
		sb.WriteString(" (line " + strconv.Itoa(p.Line) + ", col " + strconv.Itoa(p.Col) + ")")
	}
	sb.WriteString(": " + p.Code + ": " + p.Message)
	return sb.String()
}

// Problems lists the problems in an error returned by validation or a
// load, in report order.
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

// Report is what validation found: every problem, errors and warnings,
// in report order.
type Report struct {
	Problems []*Problem
}

// Add appends problems.
func (r *Report) Add(ps ...*Problem) { r.Problems = append(r.Problems, ps...) }

// Err is nil when no problem is an error; otherwise it holds every error
// (list them with Problems). Warnings never make an error.
func (r *Report) Err() error {
	var err error
	for _, p := range r.Problems {
		if p.Severity == SeverityError {
			err = multierr.Append(err, p)
		}
	}
	return err
}

// Errors are the problems of error severity.
func (r *Report) Errors() []*Problem { return r.filter(SeverityError) }

// Warnings are the problems of warning severity.
func (r *Report) Warnings() []*Problem { return r.filter(SeverityWarning) }

func (r *Report) filter(s Severity) []*Problem {
	var out []*Problem
	for _, p := range r.Problems {
		if p.Severity == s {
			out = append(out, p)
		}
	}
	return out
}

// SortByPosition orders problems by file, then line and column; problems
// without a line come after the positioned ones of their file. The sort
// is stable, so problems at one place keep their report order.
func SortByPosition(ps []*Problem) {
	sort.SliceStable(ps, func(i, j int) bool {
		a, b := ps[i], ps[j]
		if a.File != b.File {
			return a.File < b.File
		}
		if (a.Line == 0) != (b.Line == 0) {
			return b.Line == 0
		}
		return a.Line < b.Line || a.Line == b.Line && a.Col < b.Col
	})
}
