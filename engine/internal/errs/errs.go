// Package errs is the engine's internal error: the parser, the value
// model and the built-ins, which package engine imports and so cannot
// import, fail with *Error, and package engine turns it into its public
// engine.Error at every exported function (engine/errors.go). The public
// type is the one a host sees and inspects; this one carries the same
// fields, plus the host's own error it was made from, if any.
package errs

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/jinjabox/jinjabox/budget"
	"github.com/jinjabox/jinjabox/internal/msgtext"
)

// Kind is the closed set of error kinds.
type Kind uint8

// The error kinds. Type and Render match each other in the corpora.
const (
	Syntax Kind = iota + 1
	Undefined
	Security
	Budget
	Type
	Render
	Internal
)

var kindNames = [...]string{"", "syntax", "undefined", "security", "budget", "type", "render", "internal"}

// String returns the kind's name as Error's text shows it.
func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return "unknown"
}

// MaxMessage bounds the message length so an error never carries a large
// value or a long stretch of template text.
const MaxMessage = msgtext.MaxMessage

// Error is the engine's error: a kind, a position and a bounded one-line
// message.
type Error struct {
	Kind    Kind
	Name    string // template name
	Line    int    // 1-based; 0 when unknown
	Col     int    // 1-based; 0 when unknown
	Offset  int    // byte offset into the source; -1 when unknown
	Message string
	// PyError is the Python exception class Jinja2 would raise, when known.
	PyError string
	// Cause is the wrapped error (Unwrap): a *budget.Error, a host's
	// error, the context's error of a cancelled render.
	Cause error
	// Trace is the stack where an internal error's panic was recovered
	// (Stack).
	Trace []byte
	// Twin is the host's *engine.Error this error was made from, nil for
	// the engine's own: the render returns that same *engine.Error,
	// positioned, so errors.Is finds the host's error in the render's.
	Twin any
}

// New builds an error of the given kind with a bounded message.
func New(k Kind, msg string) *Error {
	return &Error{Kind: k, Offset: -1, Message: Bound(msg)}
}

// NewInternal builds the internal error for a panic the engine did not
// raise itself (a bug in the engine or in a host filter): msg says what
// panicked, stack is the goroutine's stack where the panic was recovered,
// kept for Stack and never put in the message.
func NewInternal(msg string, stack []byte) *Error {
	return &Error{Kind: Internal, Offset: -1, Message: Bound(msg), Trace: stack}
}

// Stack returns the goroutine stack captured where an internal error's
// panic was recovered, for the host to log so the bug can be found; nil
// for every other error. It is not part of Error() or Message, which the
// author of an untrusted template may see.
func (e *Error) Stack() []byte { return e.Trace }

// Throw raises an error of kind k: the evaluator, the value model and the
// built-ins end the work they cannot do by panicking with an *Error, and
// the engine recovers it where the render or parse began.
func Throw(k Kind, msg string) {
	panic(New(k, msg))
}

// Throwf raises an error of kind k with a formatted message.
func Throwf(k Kind, format string, a ...any) {
	panic(New(k, fmt.Sprintf(format, a...)))
}

// Raise raises err, if any: an *Error as it is, a *budget.Error as a
// budget error, any other error as a render error that wraps it.
func Raise(err error) {
	if err == nil {
		return
	}
	if e, ok := err.(*Error); ok {
		panic(e)
	}
	if _, ok := err.(*budget.Error); ok {
		panic(Wrap(Budget, err))
	}
	panic(Wrap(Render, err))
}

// UndefinedMessage is the message of the error for using an undefined
// value: its hint (why it is undefined), unless it is the marker of a
// missing argument, else its name, else a generic one.
func UndefinedMessage(hint string, missingArg bool, name string) string {
	if hint != "" && !missingArg {
		return hint
	}
	if name != "" {
		return Quote(name) + " is undefined"
	}
	return "value is undefined"
}

// Wrap builds an error of the given kind around a cause.
func Wrap(k Kind, cause error) *Error {
	return &Error{Kind: k, Offset: -1, Message: Bound(cause.Error()), Cause: cause}
}

// FromBudget converts a budget package error into a budget-kind error.
func FromBudget(err error) *Error {
	var e *Error
	if errors.As(err, &e) {
		return e
	}
	return Wrap(Budget, err)
}

// Unwrap returns the cause (a *budget.Error for budget errors).
func (e *Error) Unwrap() error { return e.Cause }

// BudgetError returns the underlying budget error, if any.
func (e *Error) BudgetError() *budget.Error {
	var b *budget.Error
	if errors.As(e.Cause, &b) {
		return b
	}
	return nil
}

// Error returns the error's text (Format).
func (e *Error) Error() string { return Format(e.Kind, e.Name, e.Line, e.Col, e.Message) }

// Format is the text of an error (Error.Error, engine.Error.Error):
// "KIND error in NAME:LINE:COL: MESSAGE", the position left out when
// unknown.
func Format(k Kind, name string, line, col int, msg string) string {
	var sb strings.Builder
	sb.WriteString(k.String())
	sb.WriteString(" error")
	if name != "" || line > 0 {
		sb.WriteString(" in ")
		if name != "" {
			sb.WriteString(name)
		} else {
			sb.WriteString("<template>")
		}
		if line > 0 {
			sb.WriteString(":" + strconv.Itoa(line) + ":" + strconv.Itoa(col))
		}
	}
	sb.WriteString(": ")
	sb.WriteString(msg)
	return sb.String()
}

// Bound makes msg one line of at most MaxMessage bytes (msgtext.Bound).
func Bound(msg string) string { return msgtext.Bound(msg) }

// Quote bounds a user-controlled name for inclusion in a message
// (msgtext.Quote).
func Quote(s string) string { return msgtext.Quote(s) }

// SetPos fills the position if it is not already known.
func (e *Error) SetPos(name, src string, off int) {
	if e.Name == "" {
		e.Name = name
	}
	if e.Line > 0 || off < 0 || off > len(src) {
		return
	}
	e.Offset = off
	e.Line, e.Col = LineCol(src, off)
}

// LineCol computes 1-based line and column (in code points) of a byte offset.
func LineCol(src string, off int) (int, int) {
	line, col := 1, 1
	for i, r := range src {
		if i >= off {
			break
		}
		if r == '\n' {
			line++
			col = 1
		} else {
			col++
		}
	}
	return line, col
}
