package syntax

import (
	"github.com/jinjabox/jinjabox/budget"
	"github.com/jinjabox/jinjabox/engine/errs"
)

// Parse is a placeholder until the parser lands.
func Parse(name, src string, opts Options, m *budget.Meter) (*Template, error) {
	return nil, errs.New(errs.Internal, "parser not built yet")
}
