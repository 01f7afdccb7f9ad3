package templating

import (
	"fmt"

	"github.com/jinjabox/jinjabox/engine"
)

// fail ends the render with an error of kind k (engine.Fail): the host
// objects of this package (artefacts, images) fail from methods the
// engine calls without an error result (value.ObjectImpl's Attr,
// value.CallableImpl's Call). Its filters return their errors instead.
func fail(k engine.ErrorKind, msg string) {
	engine.Fail(engine.NewError(k, msg))
}

// failf is fail with a formatted message.
func failf(k engine.ErrorKind, format string, a ...any) {
	fail(k, fmt.Sprintf(format, a...))
}
