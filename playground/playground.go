// Package playground is jinjabox's render service: a JSON HTTP API
// (POST /render, POST /check) and, at /, a page that calls it as a person
// types (`jinjabox serve`).
//
// Every request is independent: the service keeps no state between
// requests (no session, no cache of templates, no template set), so one
// client's template can neither see nor slow another's beyond the
// concurrency limit. Each request is bounded: its body by MaxBodyBytes,
// its render by the service's limits (a request may lower them, never
// raise them: engine.Options.Limits are ceilings) and by Timeout (the
// render's context, polled by the evaluator), and the number of renders at
// once by MaxConcurrent (a request past it waits up to QueueWait, then is
// refused with 503).
package playground

import (
	"context"
	_ "embed"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strconv"
	"time"

	"github.com/jinjabox/jinjabox/budget"
	"github.com/jinjabox/jinjabox/engine"
	"github.com/jinjabox/jinjabox/engine/syntax"
	"github.com/jinjabox/jinjabox/internal/dataformat"
)

//go:embed index.html
var page []byte

// Config bounds the service. Zero fields take the defaults below.
type Config struct {
	// Limits are the ceilings of every render (zero fields: the budget's
	// defaults, themselves ceilings: a request may only lower them).
	Limits budget.Limits
	// MaxBodyBytes bounds a request body (default 1 MiB).
	MaxBodyBytes int64
	// Timeout bounds one request's render in wall time (default 2 s).
	Timeout time.Duration
	// MaxConcurrent bounds the renders running at once (default 4).
	MaxConcurrent int
	// QueueWait is how long a request waits for a render slot before a
	// 503 (default 1 s).
	QueueWait time.Duration
}

// The defaults of Config.
const (
	DefaultMaxBodyBytes  = 1 << 20
	DefaultTimeout       = 2 * time.Second
	DefaultMaxConcurrent = 4
	DefaultQueueWait     = time.Second
	// DefaultWorkUnits is the service's work-unit ceiling when Config
	// sets none: about 0.1 s of rendering at the calibrated cost, far
	// below the library's default.
	DefaultWorkUnits = 1 << 20
)

// Handler serves the page at / and the API.
func Handler(c Config) http.Handler {
	if c.MaxBodyBytes <= 0 {
		c.MaxBodyBytes = DefaultMaxBodyBytes
	}
	if c.Timeout <= 0 {
		c.Timeout = DefaultTimeout
	}
	if c.MaxConcurrent <= 0 {
		c.MaxConcurrent = DefaultMaxConcurrent
	}
	if c.QueueWait <= 0 {
		c.QueueWait = DefaultQueueWait
	}
	if c.Limits.WorkUnits <= 0 {
		c.Limits.WorkUnits = DefaultWorkUnits
	}
	s := &service{cfg: c, slots: make(chan struct{}, c.MaxConcurrent)}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /{$}", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Header().Set("Content-Security-Policy", "default-src 'self'; script-src 'unsafe-inline'; style-src 'unsafe-inline'")
		_, _ = w.Write(page)
	})
	mux.HandleFunc("POST /render", s.handle(s.render))
	mux.HandleFunc("POST /check", s.handle(s.check))
	mux.HandleFunc("GET /limits", func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, http.StatusOK, map[string]any{"limits": c.Limits.Resolved(), "max_body_bytes": c.MaxBodyBytes, "timeout_ms": c.Timeout.Milliseconds()})
	})
	return mux
}

type service struct {
	cfg   Config
	slots chan struct{}
}

// Request is the body of POST /render and POST /check.
type Request struct {
	// Template is the template source.
	Template string `json:"template"`
	// Data is the render's data: a JSON object, or a string holding
	// JSON or YAML text (DataFormat).
	Data json.RawMessage `json:"data,omitempty"`
	// DataFormat is "json" (the default) or "yaml", for Data given as
	// a string.
	DataFormat string `json:"data_format,omitempty"`
	// Options are the environment's options.
	Options RequestOptions `json:"options"`
	// Limits lower the service's limits for this request.
	Limits budget.Limits `json:"limits"`
}

// RequestOptions are the engine options a request may set.
type RequestOptions struct {
	Autoescape          bool   `json:"autoescape"`
	TrimBlocks          bool   `json:"trim_blocks"`
	LstripBlocks        bool   `json:"lstrip_blocks"`
	KeepTrailingNewline bool   `json:"keep_trailing_newline"`
	StrictUndefined     bool   `json:"strict_undefined"`
	Regex               bool   `json:"regex"`                // the regular-expression filters
	Delimiters          string `json:"delimiters,omitempty"` // "jinja" (default) or "nunjitsu"
}

// Response is the answer of POST /render (Output, Units) and POST /check
// (Facts): OK, or the Error.
type Response struct {
	OK     bool          `json:"ok"`
	Output *string       `json:"output,omitempty"`
	Units  int64         `json:"units"`
	Facts  *engine.Facts `json:"facts,omitempty"`
	Error  *ErrorInfo    `json:"error,omitempty"`
}

// ErrorInfo is an engine error for a client: its kind, message, position
// and a caret excerpt of the line.
type ErrorInfo struct {
	Kind    string `json:"kind"`
	Message string `json:"message"`
	Line    int    `json:"line,omitempty"`
	Col     int    `json:"col,omitempty"`
	Limit   string `json:"limit,omitempty"`
	Excerpt string `json:"excerpt,omitempty"`
}

// handle bounds a request (body size, a render slot, a timeout), decodes
// it, runs fn and writes the answer.
func (s *service) handle(fn func(ctx context.Context, req *Request) (int, Response)) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, s.cfg.MaxBodyBytes))
		if err != nil {
			var tooBig *http.MaxBytesError
			if errors.As(err, &tooBig) {
				fail(w, http.StatusRequestEntityTooLarge, "request", "the request body is larger than "+strconv.FormatInt(s.cfg.MaxBodyBytes, 10)+" bytes")
				return
			}
			fail(w, http.StatusBadRequest, "request", err.Error())
			return
		}
		var req Request
		if err := json.Unmarshal(body, &req); err != nil {
			fail(w, http.StatusBadRequest, "request", "the body is not a JSON request: "+err.Error())
			return
		}
		wait := time.NewTimer(s.cfg.QueueWait)
		defer wait.Stop()
		select {
		case s.slots <- struct{}{}:
		case <-wait.C:
			w.Header().Set("Retry-After", "1")
			fail(w, http.StatusServiceUnavailable, "busy", "too many renders at once; try again")
			return
		case <-r.Context().Done():
			return
		}
		defer func() { <-s.slots }()
		ctx, cancel := context.WithTimeout(r.Context(), s.cfg.Timeout)
		defer cancel()
		status, resp := fn(ctx, &req)
		writeJSON(w, status, resp)
	}
}

// environment is the request's environment, built for it alone.
func (s *service) environment(req *Request) (*engine.Environment, error) {
	o := engine.Options{
		Autoescape: req.Options.Autoescape, TrimBlocks: req.Options.TrimBlocks, LstripBlocks: req.Options.LstripBlocks,
		KeepTrailingNewline: req.Options.KeepTrailingNewline, StrictUndefined: req.Options.StrictUndefined,
		Regex:  req.Options.Regex,
		Limits: s.cfg.Limits,
	}
	switch req.Options.Delimiters {
	case "", "jinja":
	case "nunjitsu":
		o.Delimiters = syntax.NunjitsuDelimiters
	default:
		return nil, errors.New("unknown delimiters " + strconv.Quote(req.Options.Delimiters) + " (want jinja or nunjitsu)")
	}
	for _, v := range []int64{req.Limits.WorkUnits, req.Limits.SourceBytes, req.Limits.ASTNodes, req.Limits.NestingDepth, req.Limits.OutputBytes, req.Limits.ScratchBytes, req.Limits.CapabilityCalls} {
		if v < 0 {
			return nil, errors.New("limits must not be negative")
		}
	}
	// a request lowers a limit, never raises it
	o.Limits = o.Limits.Lower(req.Limits)
	return engine.NewEnvironment(o)
}

func (s *service) render(ctx context.Context, req *Request) (int, Response) {
	env, err := s.environment(req)
	if err != nil {
		return http.StatusBadRequest, Response{Error: &ErrorInfo{Kind: "request", Message: err.Error()}}
	}
	data, err := decodeData(req.Data, req.DataFormat)
	if err != nil {
		return http.StatusUnprocessableEntity, Response{Error: &ErrorInfo{Kind: "data", Message: err.Error()}}
	}
	res, err := env.RenderString("template", req.Template, data, engine.RenderOptions{Context: ctx})
	if err != nil {
		return http.StatusUnprocessableEntity, Response{Error: errorInfo(err, req.Template)}
	}
	out := res.Output
	return http.StatusOK, Response{OK: true, Output: &out, Units: res.Units}
}

func (s *service) check(_ context.Context, req *Request) (int, Response) {
	env, err := s.environment(req)
	if err != nil {
		return http.StatusBadRequest, Response{Error: &ErrorInfo{Kind: "request", Message: err.Error()}}
	}
	facts, err := env.Check("template", req.Template, nil)
	if err != nil {
		return http.StatusUnprocessableEntity, Response{Facts: facts, Error: errorInfo(err, req.Template)}
	}
	return http.StatusOK, Response{OK: true, Facts: facts}
}

// decodeData decodes a request's data: a JSON object, or a string of
// JSON or YAML text; none is no data.
func decodeData(raw json.RawMessage, format string) (map[string]any, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return map[string]any{}, nil
	}
	text := []byte(raw)
	if raw[0] == '"' {
		var s string
		if err := json.Unmarshal(raw, &s); err != nil {
			return nil, err
		}
		text = []byte(s)
	} else if format == "" {
		format = "json"
	}
	switch format {
	case "", "json", "yaml":
	default:
		return nil, errors.New("unknown data_format " + strconv.Quote(format) + " (want json or yaml)")
	}
	if format == "" {
		format = "json"
	}
	return dataformat.Decode(text, format)
}

// errorInfo is err for a client, with a caret excerpt of its line.
func errorInfo(err error, src string) *ErrorInfo {
	var e *engine.Error
	if !errors.As(err, &e) {
		return &ErrorInfo{Kind: "internal", Message: err.Error()}
	}
	info := &ErrorInfo{Kind: e.Kind.String(), Message: e.Message, Line: e.Line, Col: e.Col}
	if errors.Is(err, engine.ErrCanceled) {
		info.Kind = "timeout"
	}
	if b := e.BudgetError(); b != nil {
		info.Limit = b.Limit
	}
	if info.Line <= 0 && e.Offset >= 0 && e.Offset <= len(src) && (e.Name == "" || e.Name == "template") {
		info.Line, info.Col = engine.LineCol(src, e.Offset)
	}
	if info.Line > 0 && (e.Name == "" || e.Name == "template") {
		info.Excerpt = engine.Excerpt("template", src, info.Line, info.Col)
	}
	return info
}

func fail(w http.ResponseWriter, status int, kind, msg string) {
	writeJSON(w, status, Response{Error: &ErrorInfo{Kind: kind, Message: msg}})
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(v)
}
