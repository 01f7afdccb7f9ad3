// Package failure turns jinjabox failures into Temporal application
// errors and back: the error types a caller (or a retry policy) tells
// apart without parsing messages, and the details that locate a failure
// (kind, template, line, column, pipe, field, batch item). Workflows and
// activities both use it.
package failure

import (
	"errors"
	"strconv"

	"go.temporal.io/sdk/temporal"

	"github.com/jinjabox/jinjabox/engine"
	"github.com/jinjabox/jinjabox/method"
)

// Application error types of template failures: a caller (or a retry
// policy) tells them apart by type without parsing messages.
const (
	ErrTypeSyntax    = "TemplateSyntaxError"
	ErrTypeSecurity  = "TemplateSecurityError"
	ErrTypeBudget    = "TemplateBudgetError"
	ErrTypeUndefined = "TemplateUndefinedError"
	ErrTypeRender    = "TemplateRenderError"
	// ErrTypeInvalidMethod is a library that fails validation.
	ErrTypeInvalidMethod = "InvalidMethod"
	// ErrTypeProvider is a model call the provider refused for good
	// (a 4xx other than 408/429); transient failures stay retryable.
	ErrTypeProvider = "ProviderError"
	// ErrTypeRateLimited is a model call the provider rate-limited (HTTP
	// 429). It is retryable, after the delay the provider asked for
	// (Retry-After), on an attempt budget of its own
	// (activities.RateLimitAttempts) so that a rate limit does not spend
	// the attempts meant for failures; once that budget is spent it is
	// final.
	ErrTypeRateLimited = "ProviderRateLimited"
	// ErrTypeTruncated is a model answer cut off at the token limit
	// (finish_reason "length"): final, since the same request stops at
	// the same limit, and an answer half written is not one.
	ErrTypeTruncated = "ProviderTruncated"
	// ErrTypeRefused is a model that refused to answer (a refusal
	// message, finish_reason "content_filter", or an images API content
	// policy rejection): final.
	ErrTypeRefused = "ProviderRefused"
	// ErrTypeLimit is a method whose data does not fit Temporal: a
	// payload, a history or an ID over the bound jinjabox keeps below the
	// server's limit (limit.go). It is not TemplateBudgetError: the engine
	// did not refuse a template, the run's data does not fit the server.
	ErrTypeLimit = "TemporalLimitError"
	// ErrTypeTimeout, ErrTypeCanceled and ErrTypeTerminated are a child
	// workflow or activity that timed out, was cancelled or was
	// terminated (no application error in it), named at the root.
	// ErrTypeMissingMethod and ErrTypeMissingFunction are a run that
	// needs a method not installed or a function not registered where it
	// runs (method.UnavailableError).
	ErrTypeMissingMethod   = "MissingMethod"
	ErrTypeMissingFunction = "MissingFunction"
	ErrTypeTimeout         = "RunTimeout"
	ErrTypeCanceled        = "RunCanceled"
	ErrTypeTerminated      = "RunTerminated"
)

// Details are the position details of a failure, carried as the
// application error's single detail.
type Details struct {
	Kind     string `json:"kind"`
	Template string `json:"template,omitempty"`
	Line     int    `json:"line,omitempty"`
	Col      int    `json:"col,omitempty"`
	Pipe     string `json:"pipe,omitempty"`
	Field    string `json:"field,omitempty"`
	// Item is the batch item index, -1 outside a batch.
	Item int `json:"item"`
	// Limit, Observed and Max describe a TemporalLimitError: which bound
	// (a Limit* name), the size the run reached and the bound.
	Limit    string `json:"limit,omitempty"`
	Observed int64  `json:"observed,omitempty"`
	Max      int64  `json:"max,omitempty"`
	// Path lists the pipes from the run's main pipe to the one that
	// failed (Flatten adds one per workflow level).
	Path []string `json:"path,omitempty"`
}

// ErrorType maps an engine error kind to its application error type.
func ErrorType(k engine.ErrorKind) string {
	switch k {
	case engine.KindSyntax:
		return ErrTypeSyntax
	case engine.KindSecurity:
		return ErrTypeSecurity
	case engine.KindBudget:
		return ErrTypeBudget
	case engine.KindUndefined:
		return ErrTypeUndefined
	}
	return ErrTypeRender // type, render, internal
}

// From turns a run or engine failure into a non-retryable
// Temporal application error: a template fails the same way on every
// attempt, so retrying only burns budget. Errors that are already
// application errors (a provider's, a child workflow's) pass through, and
// nil stays nil.
func From(err error) error {
	if err == nil {
		return nil
	}
	var ae *temporal.ApplicationError
	if errors.As(err, &ae) {
		return err
	}
	d := Details{Item: -1, Kind: engine.KindRender.String()}
	var re *method.RunError
	if errors.As(err, &re) {
		d.Pipe, d.Field, d.Item = re.Pipe, re.Field, re.Item
	}
	var ue *method.UnavailableError
	if errors.As(err, &ue) {
		typ := ErrTypeMissingFunction
		if ue.What == "method" {
			typ = ErrTypeMissingMethod
		}
		d.Kind = typ
		return temporal.NewNonRetryableApplicationError(err.Error(), typ, nil, d)
	}
	var ee *engine.Error
	if !errors.As(err, &ee) {
		return temporal.NewNonRetryableApplicationError(err.Error(), ErrTypeRender, nil, d)
	}
	d.Kind, d.Template, d.Line, d.Col = ee.Kind.String(), ee.Name, ee.Line, ee.Col
	return temporal.NewNonRetryableApplicationError(err.Error(), ErrorType(ee.Kind), nil, d)
}

// WithItem re-raises a batch item's failure naming the item index, so
// the caller learns which item failed first. The type and details survive.
func WithItem(err error, item int) error {
	var ae *temporal.ApplicationError
	if !errors.As(err, &ae) {
		return err
	}
	var d Details
	if ae.HasDetails() && details(ae, &d) {
		if d.Item < 0 {
			d.Item = item
		}
	} else {
		d = Details{Item: item}
	}
	return temporal.NewNonRetryableApplicationError("item "+strconv.Itoa(item)+": "+ae.Error(), ae.Type(), nil, d)
}
