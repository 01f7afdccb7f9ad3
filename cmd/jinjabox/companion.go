package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"

	"github.com/jinjabox/jinjabox/cmd/internal/cli"
)

// replaceProcess makes runCompanion replace this process with the
// companion (execve, on unix) rather than start it as a child: signals,
// the exit status and the standard streams are then the companion's own.
// main sets it; run called in process (tests) must not replace the test
// binary.
var replaceProcess bool

// findCompanion returns the path of the jinjabox-method to run: the one
// next to this executable (symlinks resolved, so a symlinked
// bin/jinjabox finds its real directory's), else the one on PATH. The
// executable's directory comes first so that a build (make build,
// bin/) runs its own companion, not an older installed one. A variable
// so tests can point it elsewhere.
var findCompanion = func() (string, error) {
	name := cli.Companion
	if runtime.GOOS == "windows" {
		name += ".exe"
	}
	if exe, err := os.Executable(); err == nil {
		if exe, err = filepath.EvalSymlinks(exe); err == nil {
			p := filepath.Join(filepath.Dir(exe), name)
			if fi, err := os.Stat(p); err == nil && fi.Mode().IsRegular() && (runtime.GOOS == "windows" || fi.Mode()&0o111 != 0) {
				return p, nil
			}
		}
	}
	return exec.LookPath(cli.Companion)
}

// runCompanion runs args (exec or run and their arguments) with
// jinjabox-method and returns its exit status; it does not return when
// it replaces the process. Without the companion a command's help is the
// synopsis this binary knows (exit 0), anything else a one-line error
// (exit 2).
func runCompanion(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	path, err := findCompanion()
	if err != nil {
		if len(args) == 2 && (args[1] == "-h" || args[1] == "-help" || args[1] == "--help") {
			commands.CommandSummary(stdout, args[0])
			fmt.Fprintf(stdout, "\n%s runs %s and lists its flags; it is not installed (%s).\n", cli.Companion, args[0], cli.Install)
			return 0
		}
		fmt.Fprintf(stderr, "jinjabox %s: %s is not installed next to jinjabox or on PATH: %s\n", args[0], cli.Companion, cli.Install)
		return 2
	}
	if replaceProcess && canReplace {
		err := replace(path, args) // returns only when it fails
		fmt.Fprintf(stderr, "jinjabox %s: running %s: %v\n", args[0], path, err)
		return 2
	}
	cmd := exec.Command(path, args...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = stdin, stdout, stderr
	err = cmd.Run()
	var ee *exec.ExitError
	switch {
	case errors.As(err, &ee):
		if code := ee.ExitCode(); code >= 0 {
			return code
		}
		return 1 // killed by a signal: a failure, not a usage error
	case err != nil:
		fmt.Fprintf(stderr, "jinjabox %s: running %s: %v\n", args[0], path, err)
		return 2
	}
	return 0
}
