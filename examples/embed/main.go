// Command embed renders a template from Go values with jinjabox, as a
// program that embeds the engine would: a struct with json tags, a
// pointer, typed maps and slices and a time.Time, copied into the
// template's values at the start of the render.
package main

import (
	"fmt"
	"io"
	"os"
	"time"

	"github.com/jinjabox/jinjabox/budget"
	"github.com/jinjabox/jinjabox/engine"
	"github.com/jinjabox/jinjabox/godata"
)

// Order is the data: plain Go types with json tags, nothing
// jinjabox-specific.
type Order struct {
	ID       int            `json:"id"`
	Customer *Customer      `json:"customer"`
	Items    map[string]int `json:"items"`
	Paid     []bool         `json:"paid"`
	Placed   time.Time      `json:"placed"`
	Note     string         `json:"note,omitempty"`
	Internal string         `json:"-"`
}

// Customer is pointed to by Order.
type Customer struct {
	Name string `json:"name"`
	VIP  bool   `json:"vip"`
}

const page = `Order #{{ id }} for {{ customer.name }}{% if customer.vip %} (VIP){% endif %}
{% for name, qty in items | dictsort %}- {{ name }} x{{ qty }}
{% endfor %}paid: {{ paid | join(", ") }}; all paid: {{ paid | select | list | length == paid | length }}
placed: {{ placed }}{{ note | default(" (no note)") }}{{ Internal | default("") }}`

// render writes the order's page to w and returns the work units the
// render spent.
func render(w io.Writer, o Order) (int64, error) {
	var env engine.Environment // the zero Environment is Jinja2's defaults
	tpl, err := env.Parse("order", page)
	if err != nil {
		return 0, err
	}
	// the struct becomes template data by its json tags: copied once,
	// by reflection in this program, never bound live
	data, err := godata.Map(o)
	if err != nil {
		return 0, err
	}
	res, err := tpl.Execute(w, data, engine.RenderOptions{Limits: budget.Limits{WorkUnits: 100_000}})
	return res.Units, err
}

func main() {
	o := Order{
		ID:       42,
		Customer: &Customer{Name: "Ada", VIP: true},
		Items:    map[string]int{"pear": 2, "apple": 3},
		Paid:     []bool{true, false},
		Placed:   time.Date(2026, 12, 5, 9, 30, 0, 0, time.UTC),
		Internal: "never shown",
	}
	units, err := render(os.Stdout, o)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	fmt.Printf("\n(%d work units)\n", units)
}
