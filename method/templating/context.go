package templating

import "github.com/jinjabox/jinjabox/engine"

// contextEnv prepares the contexts of PrepareData. A prepared context is
// data only: Environment.Prepare copies it in under the copy-in
// ceilings, which no environment option changes, and RenderPrepared
// renders it in any environment. So one context serves the renders of
// every category, style and setting, and the environment that prepares
// it is this one, with no options.
var contextEnv = func() *engine.Environment {
	env, err := engine.NewEnvironment(engine.Options{})
	if err != nil {
		panic("templating: the default environment: " + err.Error())
	}
	return env
}()

// PrepareData copies data in once (engine.Environment.Prepare: the
// ceilings of a render's copy-in, artefacts bound by reference and
// sealed) as the context of any number of renders (RenderPrepared), from
// any number of goroutines. A refused copy returns the error a render
// copying data in reports.
func PrepareData(data map[string]any) (*engine.Prepared, error) {
	return contextEnv.Prepare(data)
}
