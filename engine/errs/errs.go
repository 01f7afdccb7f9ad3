// Package errs holds the engine's one error type with its closed list of
// kinds. Every failure a template can cause surfaces as *Error.
package errs

import (
	"errors"
	"strconv"
	"strings"

	"github.com/jinjabox/jinjabox/budget"
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

func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return "unknown"
}

// MaxMessage bounds the message length so an error never carries a large
// value or a long stretch of template text.
const MaxMessage = 300

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
	cause   error
	stack   []byte // see Stack
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
	return &Error{Kind: Internal, Offset: -1, Message: Bound(msg), stack: stack}
}

// Stack returns the goroutine stack captured where an internal error's
// panic was recovered, for the host to log so the bug can be found; nil
// for every other error. It is not part of Error() or Message, which the
// author of an untrusted template may see.
func (e *Error) Stack() []byte { return e.stack }

// Wrap builds an error of the given kind around a cause.
func Wrap(k Kind, cause error) *Error {
	return &Error{Kind: k, Offset: -1, Message: Bound(cause.Error()), cause: cause}
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
func (e *Error) Unwrap() error { return e.cause }

// BudgetError returns the underlying budget error, if any.
func (e *Error) BudgetError() *budget.Error {
	var b *budget.Error
	if errors.As(e.cause, &b) {
		return b
	}
	return nil
}

func (e *Error) Error() string {
	var sb strings.Builder
	sb.WriteString(e.Kind.String())
	sb.WriteString(" error")
	if e.Name != "" || e.Line > 0 {
		sb.WriteString(" in ")
		if e.Name != "" {
			sb.WriteString(e.Name)
		} else {
			sb.WriteString("<template>")
		}
		if e.Line > 0 {
			sb.WriteString(":" + strconv.Itoa(e.Line) + ":" + strconv.Itoa(e.Col))
		}
	}
	sb.WriteString(": ")
	sb.WriteString(e.Message)
	return sb.String()
}

// Bound makes msg one line of at most MaxMessage bytes.
func Bound(msg string) string {
	msg = strings.ReplaceAll(msg, "\n", " ")
	msg = strings.ReplaceAll(msg, "\r", " ")
	if len(msg) > MaxMessage {
		cut := MaxMessage
		for cut > 0 && msg[cut]&0xC0 == 0x80 {
			cut--
		}
		msg = msg[:cut] + "..."
	}
	return msg
}

// Quote bounds a user-controlled name for inclusion in a message.
func Quote(s string) string {
	if len(s) > 40 {
		cut := 40
		for cut > 0 && s[cut]&0xC0 == 0x80 {
			cut--
		}
		s = s[:cut] + "..."
	}
	return strconv.Quote(s)
}

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
