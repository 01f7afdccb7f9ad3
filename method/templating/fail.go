package templating

import (
	"fmt"

	"github.com/jinjabox/jinjabox/engine"
)

// fail ends the render with an error of kind k (engine.Fail). The host
// objects of this package (artefacts, images, content) fail from methods
// the engine calls without an error result (value.ObjectImpl's Attr,
// value.CallableImpl's Call), and its filters fail deep inside the calls
// they make to the value model and the meter, which unwind the same way;
// so they fail as the built-in filters do, with the engine's public way
// to do it.
func fail(k engine.ErrorKind, msg string) {
	engine.Fail(engine.NewError(k, msg))
}

// failf is fail with a formatted message.
func failf(k engine.ErrorKind, format string, a ...any) {
	fail(k, fmt.Sprintf(format, a...))
}
