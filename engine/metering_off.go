//go:build jinjabox_nometer

package engine

// metering is off in this build: the budget benchmark (make bench, the
// jinjabox_nometer tag) renders without charging work units, capability
// calls or scratch sizes, to measure the budget's overhead against the
// default build. Never build a host with this tag: its renders have no
// work budget.
const metering = false
