//go:build tools

// Package devserver pins the Temporal CLI (which embeds the dev server) in a
// nested module so the library's own go.mod stays free of server deps.
package devserver

import _ "github.com/temporalio/cli/cmd/temporal"
