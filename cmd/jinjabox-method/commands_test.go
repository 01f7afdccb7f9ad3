package main

import (
	"testing"

	"github.com/jinjabox/jinjabox/cmd/internal/cli/clitest"
)

// TestEveryCommandDocumented: the commands run accepts are exactly the
// listed ones, each documented, each answering its help and an unknown
// flag (clitest.EveryCommandDocumented). jinjabox lists exec and run
// with the same synopses (cli.Exec, cli.Run; cmd/jinjabox's test of the
// same name).
func TestEveryCommandDocumented(t *testing.T) {
	if commands.Usage() != usage {
		t.Fatal("usage is not the command table's")
	}
	clitest.EveryCommandDocumented(t, commands, func(args ...string) (int, string, string) {
		return runCLI(t, args...)
	}, "jinjabox-method")
}
