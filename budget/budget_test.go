package budget

import (
	"errors"
	"reflect"
	"strings"
	"testing"
)

func TestChargeRefusesBeforeSpending(t *testing.T) {
	m := NewMeter(Limits{WorkUnits: 1000})
	if err := m.Charge(600, "a"); err != nil {
		t.Fatal(err)
	}
	err := m.Charge(500, "the operator '*'")
	var be *Error
	if !errors.As(err, &be) {
		t.Fatalf("want *Error, got %v", err)
	}
	if m.Used() != 600 {
		t.Fatalf("a refused charge spent units: used %d", m.Used())
	}
	if be.Need != 500 || be.Left != 400 || be.Configured != 1000 {
		t.Fatalf("amounts wrong: %+v", be)
	}
	msg := err.Error()
	for _, want := range []string{"the operator '*'", "500", "400", "1,000"} {
		if !strings.Contains(msg, want) {
			t.Errorf("message %q lacks %q", msg, want)
		}
	}
	if !m.TrySpend(400) || m.TrySpend(1) || m.Left() != 0 {
		t.Fatalf("TrySpend wrong: left %d", m.Left())
	}
	if m.TrySpend(-5) {
		t.Fatal("negative spend accepted")
	}
}

// TestTrySpendTable holds TrySpend's one unsigned comparison: a negative
// amount and one past what is left are refused with nothing spent, an
// amount of exactly what is left is spent, and the zero Meter (a
// renderer's spare) spends no unit. MeterFor starts at the limit's units.
func TestTrySpendTable(t *testing.T) {
	cases := []struct {
		name      string
		m         Meter
		n         int64
		ok        bool
		left, use int64
	}{
		{"within", MeterFor(Limits{WorkUnits: 10}), 3, true, 7, 3},
		{"exactly what is left", MeterFor(Limits{WorkUnits: 10}), 10, true, 0, 10},
		{"one past", MeterFor(Limits{WorkUnits: 10}), 11, false, 10, 0},
		{"negative", MeterFor(Limits{WorkUnits: 10}), -1, false, 10, 0},
		{"most negative", MeterFor(Limits{WorkUnits: 10}), -1 << 63, false, 10, 0},
		{"largest", MeterFor(Limits{WorkUnits: 1<<63 - 1}), 1<<63 - 1, true, 0, 1<<63 - 1},
		{"zero meter, a unit", Meter{}, 1, false, 0, 0},
		{"zero meter, none", Meter{}, 0, true, 0, 0},
	}
	for _, c := range cases {
		m := c.m
		if ok := m.TrySpend(c.n); ok != c.ok || m.Left() != c.left || m.Used() != c.use {
			t.Errorf("%s: TrySpend(%d) = %v, left %d, used %d; want %v, %d, %d",
				c.name, c.n, ok, m.Left(), m.Used(), c.ok, c.left, c.use)
		}
	}
	if m := NewMeter(Limits{}); m.Left() != DefaultWorkUnits || m.Used() != 0 || m.Phase != PhaseParse {
		t.Fatalf("NewMeter: left %d, used %d, phase %q", m.Left(), m.Used(), m.Phase)
	}
}

// TestLimitsIsZero holds IsZero to the comparison with Limits{}: any one
// field set, negative or positive, makes the limits not zero.
func TestLimitsIsZero(t *testing.T) {
	if !(Limits{}).IsZero() {
		t.Fatal("Limits{} is not zero")
	}
	// every field, by reflection: a field added to Limits and not to
	// IsZero fails here
	for i := range reflect.TypeFor[Limits]().NumField() {
		for _, v := range []int64{1, -1, -1 << 63} {
			var l Limits
			reflect.ValueOf(&l).Elem().Field(i).SetInt(v)
			if l.IsZero() {
				t.Errorf("%s at %d: IsZero", reflect.TypeFor[Limits]().Field(i).Name, v)
			}
		}
	}
}

func TestLimitsResolved(t *testing.T) {
	l := Limits{}.Resolved()
	if l.WorkUnits != DefaultWorkUnits || l.NestingDepth != DefaultNestingDepth {
		t.Fatalf("defaults not applied: %+v", l)
	}
}

func TestCheckNamesLimit(t *testing.T) {
	m := NewMeter(Limits{OutputBytes: 4})
	m.Phase = PhaseRender
	err := m.Check(LimitOutputBytes, 5, "output")
	var be *Error
	if !errors.As(err, &be) || be.Limit != LimitOutputBytes || be.Observed != 5 || be.Configured != 4 || be.Phase != PhaseRender {
		t.Fatalf("bad limit error: %#v", err)
	}
	if m.Check(LimitOutputBytes, 4, "output") != nil {
		t.Fatal("at the limit is allowed")
	}
}

func TestCapabilityCalls(t *testing.T) {
	m := NewMeter(Limits{CapabilityCalls: 2})
	for i := 0; i < 2; i++ {
		if err := m.CapabilityCall("filter", "upper"); err != nil {
			t.Fatalf("call %d within the limit refused: %v", i+1, err)
		}
	}
	if err := m.CapabilityCall("filter", "upper"); err == nil || !strings.Contains(err.Error(), "filter upper") {
		t.Fatalf("third call: %v", err)
	}
}

func TestSaturatingArithmetic(t *testing.T) {
	if Mul(1<<62, 4) != 1<<63-1 || Add(1<<63-1, 1) != 1<<63-1 || Mul(-1, 5) != 0 {
		t.Fatal("saturation wrong")
	}
	if Commas(1234567) != "1,234,567" || Commas(12) != "12" || Commas(-1000) != "-1,000" {
		t.Fatal("commas wrong")
	}
}

// TestLimitsField: every configurable limit name reaches its own field of
// Limits, the one Meter.Check compares against; other names reach none.
func TestLimitsField(t *testing.T) {
	var l Limits
	want := map[string]*int64{
		LimitWorkUnits:       &l.WorkUnits,
		LimitSourceBytes:     &l.SourceBytes,
		LimitASTNodes:        &l.ASTNodes,
		LimitNestingDepth:    &l.NestingDepth,
		LimitOutputBytes:     &l.OutputBytes,
		LimitScratchBytes:    &l.ScratchBytes,
		LimitCapabilityCalls: &l.CapabilityCalls,
	}
	for name, p := range want {
		if got := l.Field(name); got != p {
			t.Errorf("Field(%q) is not its field", name)
		}
		m := NewMeter(Limits{}.Resolved())
		*m.Limits.Field(name) = 10
		if err := m.Check(name, 11, "op"); err == nil {
			t.Errorf("Check(%q, 11) over a limit of 10 passed", name)
		}
		if err := m.Check(name, 10, "op"); err != nil {
			t.Errorf("Check(%q, 10) at a limit of 10: %v", name, err)
		}
	}
	for _, name := range []string{LimitIntegerWidth, "", "work-units"} {
		if l.Field(name) != nil {
			t.Errorf("Field(%q) is a field", name)
		}
	}
}
