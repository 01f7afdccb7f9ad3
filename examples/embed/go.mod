module example.com/embed

go 1.26.0

require github.com/jinjabox/jinjabox v0.0.0

// The install that works today: a clone of jinjabox next to this module
// (the module is not published yet).
replace github.com/jinjabox/jinjabox => ../..
