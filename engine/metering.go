//go:build !jinjabox_nometer

package engine

// metering is whether renders charge their work to the meter. It is a
// constant, so the check folds away: every build meters, except the one
// `make bench` makes with the jinjabox_nometer tag to measure what the
// budget costs (metering_off.go). No template, option or API reaches it.
const metering = true
