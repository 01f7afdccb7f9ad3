// Package budget owns the per-render work meter, the named resource limits
// and the budget error. It is a leaf: standard library only, so the same
// meter can run inside Temporal workflow code.
package budget

import (
	"fmt"
	"strconv"
	"strings"
)

// Cost scale (Pipelex's): one unit is roughly one byte read or allocated.
const (
	// Step is charged for an operator, filter, test, comparison, printed
	// value or loop iteration (even one with an empty body).
	Step int64 = 256
	// Call is charged for a method or macro call.
	Call int64 = 1024
	// Elem is charged for an element drawn from an iterable or found in a
	// produced container.
	Elem int64 = 64
	// Slot is the size charged for one container slot.
	Slot int64 = 8
	// EscapeFactor multiplies the size of text that autoescape may expand.
	EscapeFactor int64 = 6
	// MarkdownChar is charged per character of Markdown rendering.
	MarkdownChar int64 = 2048
)

// Defaults for the named limits. The nesting default sits where Jinja2
// itself stops (CPython refuses about 200 nested levels of the code Jinja
// generates): 50-level nesting and macro recursion to depth 100 work, a
// 200-term operator chain is refused.
const (
	DefaultWorkUnits       int64 = 134217728 // 128 Mi
	DefaultSourceBytes     int64 = 1 << 20
	DefaultASTNodes        int64 = 200000
	DefaultNestingDepth    int64 = 160
	DefaultOutputBytes     int64 = 16 << 20
	DefaultScratchBytes    int64 = 64 << 20
	DefaultCapabilityCalls int64 = 1000000
)

// Limits are the per-render resource ceilings. A zero field means the default.
type Limits struct {
	WorkUnits       int64 `json:"work_units,omitempty"`
	SourceBytes     int64 `json:"source_bytes,omitempty"`
	ASTNodes        int64 `json:"ast_nodes,omitempty"`
	NestingDepth    int64 `json:"nesting_depth,omitempty"`
	OutputBytes     int64 `json:"output_bytes,omitempty"`
	ScratchBytes    int64 `json:"scratch_bytes,omitempty"`
	CapabilityCalls int64 `json:"capability_calls,omitempty"`
}

// IsZero reports whether every field of l is zero (all defaults). It is
// l == Limits{} without the runtime's memory comparison, which a render
// paid on every call (RenderOptions' limits are most often unset).
func (l Limits) IsZero() bool {
	return l.WorkUnits|l.SourceBytes|l.ASTNodes|l.NestingDepth|l.OutputBytes|l.ScratchBytes|l.CapabilityCalls == 0
}

// Lower returns l with each field by sets (non-zero) in its place where
// l's is unset (zero: the default) or larger: limits that are l's
// ceilings, lowered by by, never raised.
func (l Limits) Lower(by Limits) Limits {
	f := func(dst *int64, v int64) {
		if v > 0 && (*dst <= 0 || v < *dst) {
			*dst = v
		}
	}
	f(&l.WorkUnits, by.WorkUnits)
	f(&l.SourceBytes, by.SourceBytes)
	f(&l.ASTNodes, by.ASTNodes)
	f(&l.NestingDepth, by.NestingDepth)
	f(&l.OutputBytes, by.OutputBytes)
	f(&l.ScratchBytes, by.ScratchBytes)
	f(&l.CapabilityCalls, by.CapabilityCalls)
	return l
}

// Resolved returns l with every zero field replaced by its default.
func (l Limits) Resolved() Limits {
	def := func(v, d int64) int64 {
		if v <= 0 {
			return d
		}
		return v
	}
	return Limits{
		WorkUnits:       def(l.WorkUnits, DefaultWorkUnits),
		SourceBytes:     def(l.SourceBytes, DefaultSourceBytes),
		ASTNodes:        def(l.ASTNodes, DefaultASTNodes),
		NestingDepth:    def(l.NestingDepth, DefaultNestingDepth),
		OutputBytes:     def(l.OutputBytes, DefaultOutputBytes),
		ScratchBytes:    def(l.ScratchBytes, DefaultScratchBytes),
		CapabilityCalls: def(l.CapabilityCalls, DefaultCapabilityCalls),
	}
}

// Field is the field of l that the named limit configures, nil when the
// name is not a configurable limit (integer_width is fixed at 64 bits).
func (l *Limits) Field(name string) *int64 {
	switch name {
	case LimitWorkUnits:
		return &l.WorkUnits
	case LimitSourceBytes:
		return &l.SourceBytes
	case LimitASTNodes:
		return &l.ASTNodes
	case LimitNestingDepth:
		return &l.NestingDepth
	case LimitOutputBytes:
		return &l.OutputBytes
	case LimitScratchBytes:
		return &l.ScratchBytes
	case LimitCapabilityCalls:
		return &l.CapabilityCalls
	}
	return nil
}

// Limit names used in errors.
const (
	LimitWorkUnits       = "work_units"
	LimitSourceBytes     = "source_bytes"
	LimitASTNodes        = "ast_nodes"
	LimitNestingDepth    = "nesting_depth"
	LimitOutputBytes     = "output_bytes"
	LimitScratchBytes    = "scratch_bytes"
	LimitCapabilityCalls = "capability_calls"
	LimitIntegerWidth    = "integer_width"
)

// Phase says whether a limit was hit while parsing or while rendering.
type Phase string

// Phases.
const (
	PhaseParse  Phase = "parse"
	PhaseRender Phase = "render"
)

// Error is a refusal by a resource limit. Its message names the operation,
// the limit and the amounts, never template text or a value.
type Error struct {
	Limit      string // one of the Limit* names
	Phase      Phase
	Op         string // the operation that would overdraw
	Configured int64  // the configured ceiling
	Observed   int64  // what the operation would bring the total to
	Need       int64  // what the operation needed
	Left       int64  // what was left before it
}

func (e *Error) Error() string {
	switch e.Limit {
	case LimitWorkUnits:
		return "rendering the template would spend more than its budget of " + Commas(e.Configured) +
			" work units: " + e.Op + " needs about " + Commas(e.Need) + ", and " + Commas(e.Left) +
			" are left (phase " + string(e.Phase) + ")"
	case LimitIntegerWidth:
		return "rendering the template would produce an integer wider than 64 bits by " + e.Op +
			"; template arithmetic stops at 64 bits"
	}
	return fmt.Sprintf("limit %s exceeded during %s: %s reaches %d, limit is %d",
		e.Limit, e.Phase, e.Op, e.Observed, e.Configured)
}

// Commas formats n with thousands separators, as the messages do.
func Commas(n int64) string {
	s := strconv.FormatInt(n, 10)
	neg := strings.HasPrefix(s, "-")
	if neg {
		s = s[1:]
	}
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	if neg {
		return "-" + b.String()
	}
	return b.String()
}

// Meter counts work units and the other cumulative limits for one render.
// It is not safe for concurrent use; each render owns one.
// A meter is made by NewMeter or MeterFor: the zero Meter has no units
// left. Its Limits.WorkUnits is read when it is made.
type Meter struct {
	Limits Limits // resolved
	Phase  Phase
	// left is the work units still available (Limits.WorkUnits less those
	// spent), kept in place of the units spent so that the fast path,
	// TrySpend, inlined at every charge site of the evaluator, compares
	// and subtracts one field instead of first subtracting two.
	left  int64
	calls int64
	// Cancelled, when set, reports the host's cancellation of the work
	// the meter measures (a render's context.Err): the parser polls it
	// every thousand nodes, so a cancelled render does not wait for the
	// parse of a large template to end.
	Cancelled func() error
}

// NewMeter returns a meter for the given limits (zero fields are defaults).
func NewMeter(l Limits) *Meter {
	m := MeterFor(l.Resolved())
	m.Phase = PhaseParse
	return &m
}

// MeterFor returns a meter, with no phase set, for limits already
// resolved (Limits.Resolved): a renderer's own meter, made in place for
// every render without resolving its limits again.
func MeterFor(resolved Limits) Meter {
	return Meter{Limits: resolved, left: resolved.WorkUnits}
}

// Used returns the work units spent so far.
func (m *Meter) Used() int64 { return m.Limits.WorkUnits - m.left }

// Left returns the work units still available.
func (m *Meter) Left() int64 { return m.left }

// Charge spends n units for op, or returns the budget error without
// spending when the budget would be overdrawn. Call it before the work.
func (m *Meter) Charge(n int64, op string) error {
	if n < 0 {
		n = 0
	}
	if n > m.left {
		return &Error{Limit: LimitWorkUnits, Phase: m.Phase, Op: op,
			Configured: m.Limits.WorkUnits, Observed: satAdd(m.Used(), n), Need: n, Left: m.left}
	}
	m.left -= n
	return nil
}

// TrySpend spends n units if they are left and reports whether it did.
// It is the allocation-free fast path of Charge. One unsigned comparison
// refuses both a negative n (Charge's to treat as none) and one past
// what is left, which is never negative.
func (m *Meter) TrySpend(n int64) bool {
	if uint64(n) > uint64(m.left) {
		return false
	}
	m.left -= n
	return true
}

// Check returns a limit error if observed exceeds the configured value of
// the named limit.
func (m *Meter) Check(limit string, observed int64, op string) error {
	f := m.Limits.Field(limit)
	if f == nil {
		return nil
	}
	c := *f
	if observed > c {
		return &Error{Limit: limit, Phase: m.Phase, Op: op, Configured: c, Observed: observed}
	}
	return nil
}

// CapabilityCall counts one call of a capability (a registered filter,
// test, global or surface method) against the capability_calls limit.
// The operation is named "kind name", built only on refusal.
func (m *Meter) CapabilityCall(kind, name string) error {
	m.calls++
	if m.calls <= m.Limits.CapabilityCalls {
		return nil
	}
	return m.Check(LimitCapabilityCalls, m.calls, kind+" "+name)
}

// Overflow builds the error for an integer result wider than 64 bits.
func (m *Meter) Overflow(op string) error {
	return &Error{Limit: LimitIntegerWidth, Phase: m.Phase, Op: op, Configured: 64, Observed: 65}
}

func satAdd(a, b int64) int64 {
	s := a + b
	if s < a {
		return 1<<63 - 1
	}
	return s
}

// Mul returns a*b saturated at the int64 maximum (for estimates).
func Mul(a, b int64) int64 {
	if a <= 0 || b <= 0 {
		return 0
	}
	if a > (1<<63-1)/b {
		return 1<<63 - 1
	}
	return a * b
}

// Add returns a+b saturated at the int64 maximum (for estimates).
func Add(a, b int64) int64 { return satAdd(a, b) }
