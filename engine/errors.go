package engine

import (
	"errors"

	"github.com/jinjabox/jinjabox/budget"
	"github.com/jinjabox/jinjabox/engine/internal/errs"
)

// ErrorKind says what kind of failure an Error is. The set is closed: a
// host can switch over the Kind constants and know it has covered every
// failure the engine reports.
type ErrorKind uint8

// The error kinds. They have the same values as the engine's internal
// kinds, so converting one is a plain type conversion.
const (
	// KindSyntax: the source does not parse, or the static pass refuses
	// it (an unknown filter, a malformed call).
	KindSyntax = ErrorKind(errs.Syntax)
	// KindUndefined: the template used an undefined value where Jinja2
	// raises UndefinedError (an attribute of an undefined, or any use
	// under StrictUndefined).
	KindUndefined = ErrorKind(errs.Undefined)
	// KindSecurity: the template reached for something the sandbox
	// refuses (a private attribute, a method that is not on the
	// allow-list).
	KindSecurity = ErrorKind(errs.Security)
	// KindBudget: the render would have passed a limit (work units,
	// output bytes, nesting depth...); Error.BudgetError says which.
	KindBudget = ErrorKind(errs.Budget)
	// KindType: an operation got a value of the wrong type (Jinja2's
	// TypeError), or data that cannot be copied in.
	KindType = ErrorKind(errs.Type)
	// KindRender: any other failure of the render (Jinja2's runtime
	// errors, a missing template, a host filter's own error, a
	// cancellation: errors.Is(err, ErrCanceled)).
	KindRender = ErrorKind(errs.Render)
	// KindInternal: a bug in the engine or in a host filter, not the
	// template's doing; Error.Stack has the stack for the host's logs.
	KindInternal = ErrorKind(errs.Internal)
)

// String returns the kind's name as it appears in Error's text: "syntax",
// "undefined", "security", "budget", "type", "render" or "internal".
func (k ErrorKind) String() string { return errs.Kind(k).String() }

// Error is the engine's one error type: every error the engine's
// functions and methods return is an *Error (errors.As finds it), with a
// kind, the position the failure was raised at and a bounded, one-line
// message. The message is safe to show the template's author: it never
// holds a large value, a long stretch of the template, or a Go stack.
type Error struct {
	// Kind says what failed.
	Kind ErrorKind
	// Name is the name of the template the failure was raised in (an
	// included template's own name), "" when no template was running.
	Name string
	// Line and Col are the 1-based line and column (in code points) of the
	// failure in Name's source, 0 when unknown.
	Line int
	Col  int
	// Offset is the byte offset of the failure in Name's source, -1 when
	// unknown; LineCol turns it into a line and column.
	Offset int
	// Message says what failed, in one line of at most a few hundred bytes.
	Message string
	// PyError is the Python exception class Jinja2 would raise for the
	// same failure ("TemplateSyntaxError", "UndefinedError"...), "" when
	// not known: for hosts that report failures as Jinja2 does.
	PyError string

	cause error  // Unwrap
	stack []byte // Stack
}

// NewError returns an error of kind k with message msg, cut to one line
// of a few hundred bytes as the engine's own messages are. A Filter or a
// Test returns one to fail the render with that kind; hosts that report
// their own failures next to the engine's (method, workflows) build theirs
// with it too.
func NewError(k ErrorKind, msg string) *Error {
	return &Error{Kind: k, Offset: -1, Message: errs.Bound(msg)}
}

// WrapError returns an error of kind k that wraps err (errors.Is and
// errors.As reach it), with err's text, bounded, as its message.
func WrapError(k ErrorKind, err error) *Error {
	return &Error{Kind: k, Offset: -1, Message: errs.Bound(err.Error()), cause: err}
}

// Error returns "KIND error in NAME:LINE:COL: MESSAGE", leaving out the
// position when it is unknown.
func (e *Error) Error() string {
	return errs.Format(errs.Kind(e.Kind), e.Name, e.Line, e.Col, e.Message)
}

// Unwrap returns the error this one wraps, nil if none: a *budget.Error
// for a budget error, a host filter's own error, ErrCanceled joined with
// the context's error for a cancelled render.
func (e *Error) Unwrap() error { return e.cause }

// Stack returns the goroutine stack captured where an internal error's
// panic was recovered, for the host to log so the bug can be found; nil
// for every other error. It is not part of Error() or Message, which the
// author of an untrusted template may see.
func (e *Error) Stack() []byte { return e.stack }

// BudgetError returns the budget error a KindBudget error wraps (which
// limit, configured and needed amounts), nil if none.
func (e *Error) BudgetError() *budget.Error {
	var b *budget.Error
	if errors.As(e.cause, &b) {
		return b
	}
	return nil
}

// LineCol returns the 1-based line and column (in code points) of the
// byte offset off in src, as Error's Line and Col count them: for an
// error whose Offset is known and Line is not.
func LineCol(src string, off int) (line, col int) { return errs.LineCol(src, off) }

// Excerpt returns the caret excerpt of line (1-based) of src at col (in
// code points), under a header naming name, like a compiler diagnostic,
// or "" when src has no such line:
//
//	 --> t.j2:1:8
//	  |
//	1 | {{ a + }}
//	  |        ^
//
// A long line is cut around col and control characters are replaced
// (Sanitize), so the excerpt of an untrusted template is safe to print.
func Excerpt(name, src string, line, col int) string { return errs.Excerpt(name, src, line, col) }

// Sanitize replaces the control characters of s (all but tab) with '?',
// so printing an error's text cannot drive the terminal of whoever
// reads it; an untrusted template chooses much of that text.
func Sanitize(s string) string { return errs.Sanitize(s) }

// Fail ends the render with err from inside a method of a host object
// (value.ObjectImpl's Attr, value.CallableImpl's Call, and the other
// methods of the interfaces a host implements), which have no error
// result. It does not return: it unwinds to the render, which fails as
// with a Filter's error: an *Error keeps its kind, any other error
// becomes a KindRender error that wraps it. Call it only while the
// engine is calling the host, as nothing else recovers it.
func Fail(err error) {
	if err == nil {
		return
	}
	panic(toInternal(err))
}

// UndefinedError returns the error for using the undefined value u where
// a value is needed (printing, iterating or testing it under
// StrictUndefined), as the engine's own filters raise it: KindUndefined,
// with u's hint ("'dict object' has no attribute 'x'") or name as its
// message. A host filter that refuses an undefined returns it.
func UndefinedError(u Value) *Error {
	return NewError(KindUndefined, errs.UndefinedMessage(u.UndefHintText(), u.IsMissing(), u.UndefName()))
}

// Catch runs f, host code that calls the value model or a value.Ctx
// outside a render (a test of a filter with a Ctx of its own, say), and
// returns the error that code failed with as an *Error, the way a render
// would have: the value model, the meter and Fail end the work they
// cannot do by unwinding to the render, and Catch stands in for it. Any
// other panic is not the engine's and goes on unwinding.
func Catch(f func()) (err error) {
	defer func() {
		if r := recover(); r != nil {
			switch e := r.(type) {
			case *errs.Error:
				err = publicOf(e)
			case *budget.Error:
				err = publicOf(errs.Wrap(errs.Budget, e))
			default:
				panic(r)
			}
		}
	}()
	f()
	return nil
}

// toInternal is the error a host hands the engine (a Filter's, a Test's,
// Fail's) as the evaluator raises it: a host's *Error is carried as its
// twin, so the render returns that same *Error, positioned; a budget
// error keeps the budget kind; any other error becomes a render error
// that wraps it.
func toInternal(err error) *errs.Error {
	switch e := err.(type) {
	case *Error:
		if e == nil {
			break
		}
		return &errs.Error{Kind: errs.Kind(e.Kind), Name: e.Name, Line: e.Line, Col: e.Col, Offset: e.Offset,
			Message: e.Message, PyError: e.PyError, Cause: e.cause, Trace: e.stack, Twin: e}
	case *errs.Error:
		return e
	case *budget.Error:
		return errs.Wrap(errs.Budget, e)
	}
	return errs.Wrap(errs.Render, err)
}

// public is the error an exported function returns for err: the public
// *Error of an internal one, any other error as it is. Every exported
// function and method that returns an error returns public(err), so a
// host never meets the internal type.
func public(err error) error {
	e, ok := err.(*errs.Error)
	if !ok {
		return err
	}
	if e == nil {
		return nil
	}
	return publicOf(e)
}

// publicOf returns the public *Error of e: the host's own *Error when e
// was made from it (toInternal), its fields set from e's, positioned
// where the render raised it, so errors.Is finds the host's error and the
// host sees it filled in, as when the two were one type; else a new
// *Error with e's fields. A new one each time, never stored in e: an
// internal error can be shared (a trusted template that fails to parse
// is the same error at every use, in concurrent renders), and storing or
// refilling a twin there would be a write every render races on.
func publicOf(e *errs.Error) *Error {
	p, _ := e.Twin.(*Error)
	if p == nil {
		p = &Error{}
	}
	*p = Error{Kind: ErrorKind(e.Kind), Name: e.Name, Line: e.Line, Col: e.Col, Offset: e.Offset,
		Message: e.Message, PyError: e.PyError, cause: e.Cause, stack: e.Trace}
	return p
}
