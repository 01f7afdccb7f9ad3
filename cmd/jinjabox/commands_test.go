package main

import (
	"strings"
	"testing"

	"github.com/jinjabox/jinjabox/cmd/internal/cli/clitest"
)

// TestEveryCommandDocumented: the commands run accepts are exactly the
// listed ones, each documented, each answering its help and an unknown
// flag (clitest.EveryCommandDocumented). exec and run are
// jinjabox-method's (its own TestEveryCommandDocumented checks their
// flags): without it their help is still their synopsis, and anything
// else one line, exit 2.
func TestEveryCommandDocumented(t *testing.T) {
	withoutCompanion(t)
	if commands.Usage() != usage {
		t.Fatal("usage is not the command table's")
	}
	clitest.EveryCommandDocumented(t, commands, func(args ...string) (int, string, string) {
		return runCLI(t, "", args...)
	}, "jinjabox", "exec", "run")
	for _, name := range []string{"exec", "run"} {
		code, _, errOut := runCLI(t, "", name, "--no-such-flag")
		if code != 2 || strings.Count(errOut, "\n") != 1 || !strings.HasPrefix(errOut, "jinjabox "+name+": jinjabox-method is not installed") {
			t.Errorf("%s without jinjabox-method: code %d, stderr %q", name, code, errOut)
		}
	}
}
