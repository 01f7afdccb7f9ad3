package failure

import (
	"errors"
	"slices"
	"strconv"
	"strings"

	"go.temporal.io/sdk/temporal"

	"github.com/jinjabox/jinjabox/method"
)

// maxMessageBytes bounds a flattened failure's message: the failure of a
// workflow is itself a payload (the server's 2 MiB blob limit applies to
// it), and it is the same at every level.
const maxMessageBytes = 4 << 10

// kindOf is the kind of an application error type that carries no
// details (a provider's refusal, an exhausted model call).
func kindOf(typ string) string {
	switch typ {
	case ErrTypeProvider:
		return "provider"
	case ErrTypeRateLimited:
		return "rate_limited"
	case ErrTypeTruncated:
		return "truncated"
	case ErrTypeRefused:
		return "refused"
	case ErrTypeInvalidMethod:
		return "invalid_method"
	}
	return "render"
}

// jinjaboxTypes are the application error types jinjabox raises.
var jinjaboxTypes = []string{ErrTypeSyntax, ErrTypeSecurity, ErrTypeBudget, ErrTypeUndefined, ErrTypeRender,
	ErrTypeInvalidMethod, ErrTypeProvider, ErrTypeLimit, ErrTypeTimeout, ErrTypeCanceled, ErrTypeTerminated,
	ErrTypeMissingMethod, ErrTypeMissingFunction, ErrTypeRateLimited, ErrTypeTruncated, ErrTypeRefused}

// IsJinjaboxType reports whether an application error type is one of
// jinjabox's.
func IsJinjaboxType(t string) bool { return slices.Contains(jinjaboxTypes, t) }

// Flatten is the failure a workflow returns for err, raised while it ran
// pipe (a library reference; "" adds nothing to the path): one
// non-retryable application error with no cause, whose type, message and
// details are those of the innermost jinjabox error in err (a child
// workflow's failure, an activity's, the runner's), and whose path starts
// with pipe. Every workflow level flattens, so the run's failure names
// the innermost error (kind, pipe, field, line, column, item, path) at
// constant size, however deep the pipes nest. Errors with no application
// error in them are typed: a timeout, a cancellation, a termination (its
// reason kept), the server refusing a payload as too large (a
// TemporalLimitError), or the runner's error (From).
func Flatten(err error, pipe string) error {
	if err == nil {
		return nil
	}
	typ, msg, d, other := innermost(err)
	if len(msg) > maxMessageBytes {
		msg = msg[:maxMessageBytes] + "..."
	}
	if other != nil {
		// details of another shape (InvalidMethod's problem list) pass as
		// they are
		return temporal.NewNonRetryableApplicationError(msg, typ, nil, other)
	}
	if pipe != "" && (len(d.Path) == 0 || d.Path[0] != pipe) {
		d.Path = append([]string{pipe}, d.Path...)
	}
	if d.Pipe == "" {
		d.Pipe = pipe
	}
	return temporal.NewNonRetryableApplicationError(msg, typ, nil, d)
}

// innermost finds the type, message and details of the innermost
// jinjabox error of err (other: its details when they are not Details).
func innermost(err error) (typ, msg string, d Details, other any) {
	var found *temporal.ApplicationError
	for e := err; e != nil; e = errors.Unwrap(e) {
		ae, ok := e.(*temporal.ApplicationError)
		if !ok {
			continue
		}
		if found == nil || IsJinjaboxType(ae.Type()) {
			found = ae
		}
	}
	if found != nil {
		d = Details{Item: -1, Kind: "render"}
		msg = found.Message()
		if c := found.Unwrap(); c != nil {
			msg += ": " + c.Error()
		}
		if found.HasDetails() && !details(found, &d) {
			d = Details{Item: -1, Kind: "render"}
			if !details(found, &other) {
				other = nil
			}
		}
		if !found.HasDetails() {
			d.Kind = kindOf(found.Type())
		}
		// An error the runner wrapped (a model call's, a render activity's)
		// is located by its RunError: the pipe, field and item it names,
		// and a message that says where.
		var re *method.RunError
		if errors.As(err, &re) {
			if d.Pipe == "" {
				d.Pipe, d.Field = re.Pipe, re.Field
			}
			if d.Item < 0 {
				d.Item = re.Item
			}
		}
		if d.Pipe != "" && !strings.Contains(msg, "pipe "+strconv.Quote(d.Pipe)) {
			where := "pipe " + strconv.Quote(d.Pipe)
			if d.Field != "" {
				where += ", " + d.Field
			}
			msg = where + ": " + msg
		}
		return found.Type(), msg, d, other
	}
	d = Details{Item: -1}
	var te *temporal.TimeoutError
	var ce *temporal.CanceledError
	var term *temporal.TerminatedError
	var se *temporal.ServerError
	switch {
	case errors.As(err, &te):
		d.Kind = "timeout"
		return ErrTypeTimeout, "timed out (" + te.TimeoutType().String() + ")", d, nil
	case errors.As(err, &ce):
		d.Kind = "canceled"
		return ErrTypeCanceled, "canceled", d, nil
	case errors.As(err, &term):
		d.Kind = "terminated"
		return ErrTypeTerminated, "terminated: " + err.Error(), d, nil
	case errors.As(err, &se) && strings.Contains(se.Message(), "exceeds size limit"):
		d.Kind, d.Limit = "limit", LimitPayloadBytes
		return ErrTypeLimit, "the server refused a payload: " + se.Message(), d, nil
	}
	var ae *temporal.ApplicationError
	if errors.As(From(err), &ae) {
		_ = ae.Details(&d)
		return ae.Type(), ae.Message(), d, nil
	}
	return ErrTypeRender, err.Error(), d, nil
}

// details decodes an application error's details into ptr. An error made
// in this process (not decoded from a payload) holds its details as Go
// values, and the SDK panics when they are not of ptr's type: that is a
// mismatch here, as a decoding error is for a decoded one.
func details(ae *temporal.ApplicationError, ptr any) (ok bool) {
	defer func() {
		if recover() != nil {
			ok = false
		}
	}()
	return ae.Details(ptr) == nil
}
