package main

import (
	"bytes"
	"os"
	"testing"
	"time"
)

// The program's output from a struct with tags, a pointer, a
// map[string]int, a []bool and a time.Time is the page in
// testdata/order.txt, byte for byte.
func TestRenderOrder(t *testing.T) {
	want, err := os.ReadFile("testdata/order.txt")
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	o := Order{
		ID:       42,
		Customer: &Customer{Name: "Ada", VIP: true},
		Items:    map[string]int{"pear": 2, "apple": 3},
		Paid:     []bool{true, false},
		Placed:   time.Date(2026, 12, 5, 9, 30, 0, 0, time.UTC),
		Internal: "never shown",
	}
	units, err := render(&buf, o)
	if err != nil {
		t.Fatal(err)
	}
	if units <= 0 || units > 100_000 {
		t.Errorf("units = %d, want some, within the render's 100,000", units)
	}
	if buf.String() != string(want) {
		t.Errorf("got\n%s\nwant\n%s", buf.String(), want)
	}
}
