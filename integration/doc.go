// Package integration holds jinjabox's integration tests against a real
// Temporal dev server. They run when JINJABOX_TEMPORAL_BIN names the
// Temporal CLI binary (`make devserver` builds bin/temporal, and
// `make test` sets the variable when it exists); otherwise they skip, so
// `go test ./...` passes on a machine without it.
package integration
