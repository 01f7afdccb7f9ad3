package main

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/jinjabox/jinjabox/cmd/internal/cli"
)

// binDir holds jinjabox and jinjabox-method as go build makes them, built
// once for the package's tests (buildBinaries); TestMain removes it.
var (
	binDir   string
	binOnce  sync.Once
	binError error
)

func TestMain(m *testing.M) {
	code := m.Run()
	if binDir != "" {
		os.RemoveAll(binDir)
	}
	os.Exit(code)
}

// buildBinaries builds both executables into one directory, as make
// build puts them in bin/, and returns it.
func buildBinaries(t *testing.T) string {
	t.Helper()
	binOnce.Do(func() {
		goBin, err := exec.LookPath("go")
		if err != nil {
			binError = err
			return
		}
		if binDir, binError = os.MkdirTemp("", "jinjabox-bin-"); binError != nil {
			return
		}
		for _, pkg := range []string{".", "../jinjabox-method"} {
			name := filepath.Base(pkg)
			if pkg == "." {
				name = "jinjabox"
			}
			out, err := exec.Command(goBin, "build", "-o", filepath.Join(binDir, name), pkg).CombinedOutput()
			if err != nil {
				binError = errors.New("building " + pkg + ": " + err.Error() + "\n" + string(out))
				return
			}
		}
	})
	if binError != nil {
		t.Fatal(binError)
	}
	return binDir
}

// withCompanion makes run (in process) start the jinjabox-method
// buildBinaries built, for the tests that run exec.
func withCompanion(t *testing.T) {
	t.Helper()
	p := filepath.Join(buildBinaries(t), cli.Companion)
	old := findCompanion
	findCompanion = func() (string, error) { return p, nil }
	t.Cleanup(func() { findCompanion = old })
}

// withoutCompanion makes run find no jinjabox-method, whatever PATH has.
func withoutCompanion(t *testing.T) {
	t.Helper()
	old := findCompanion
	findCompanion = func() (string, error) { return "", exec.ErrNotFound }
	t.Cleanup(func() { findCompanion = old })
}

// TestCompanionDispatch runs the built jinjabox as a user does: exec runs
// the jinjabox-method beside it (also through a symlink to jinjabox
// elsewhere), with its output and exit status; help exec is the
// companion's, with the synopsis jinjabox lists; without the companion,
// exec is one line naming how to install it, and exit 2.
func TestCompanionDispatch(t *testing.T) {
	dir := buildBinaries(t)
	const td = "../../methodfile/testdata/"
	empty := t.TempDir() // a PATH with no jinjabox-method on it
	jinjabox := func(bin string, args ...string) (int, string, string) {
		t.Helper()
		cmd := exec.Command(bin, args...)
		cmd.Env = append(os.Environ(), "PATH="+empty, "JINJABOX_PROVIDER=local")
		var out, errb strings.Builder
		cmd.Stdout, cmd.Stderr = &out, &errb
		err := cmd.Run()
		var ee *exec.ExitError
		if err != nil && !errors.As(err, &ee) {
			t.Fatal(err)
		}
		return cmd.ProcessState.ExitCode(), out.String(), errb.String()
	}
	bin := filepath.Join(dir, "jinjabox")
	link := filepath.Join(t.TempDir(), "jinjabox")
	if err := os.Symlink(bin, link); err != nil {
		t.Fatal(err)
	}
	for _, b := range []string{bin, link} {
		code, out, errOut := jinjabox(b, "exec", td+"sample_method.mthds", td+"sample_inputs.json")
		if code != 0 || !strings.Contains(out, `"summary": "3 replies for 3 tickets"`) {
			t.Errorf("%s exec: exit %d\nstdout %.300s\nstderr %.300s", b, code, out, errOut)
		}
	}
	if code, _, errOut := jinjabox(bin, "exec", td+"broken.mthds", td+"sample_inputs.json"); code != 1 || !strings.Contains(errOut, "unknown_key") {
		t.Errorf("exec of a broken method: exit %d, stderr %.300s; want the companion's 1", code, errOut)
	}
	for _, cmd := range []string{"exec", "run"} {
		code, out, _ := jinjabox(bin, "help", cmd)
		if code != 0 || !strings.HasPrefix(out, commands.UsageLine(cmd)+"\n") || !strings.Contains(out, "\nflags:\n") {
			t.Errorf("help %s: exit %d, stdout %.300q; want the companion's help, %q first", cmd, code, out, commands.UsageLine(cmd))
		}
	}
	if code, out, _ := jinjabox(filepath.Join(dir, cli.Companion), "--version"); code != 0 || !strings.HasPrefix(out, "jinjabox-method ") {
		t.Errorf("jinjabox-method --version: exit %d, %q", code, out)
	}

	// without the companion: jinjabox alone in a directory
	alone := filepath.Join(t.TempDir(), "jinjabox")
	data, err := os.ReadFile(bin)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(alone, data, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, cmd := range []string{"exec", "run"} {
		code, out, errOut := jinjabox(alone, cmd, td+"sample_method.mthds", td+"sample_inputs.json")
		want := "jinjabox " + cmd + ": jinjabox-method is not installed next to jinjabox or on PATH: " + cli.Install + "\n"
		if code != 2 || out != "" || errOut != want {
			t.Errorf("%s without the companion: exit %d, stdout %q, stderr %q; want 2 and %q", cmd, code, out, errOut, want)
		}
	}
	if !strings.Contains(cli.Install, "go install github.com/jinjabox/jinjabox/cmd/jinjabox-method@latest") || !strings.Contains(cli.Install, "make build") {
		t.Errorf("the install hint %q names neither go install nor make build", cli.Install)
	}
	// ... and its help is still the synopsis
	if code, out, _ := jinjabox(alone, "help", "exec"); code != 0 || !strings.HasPrefix(out, commands.UsageLine("exec")+"\n") {
		t.Errorf("help exec without the companion: exit %d, %q", code, out)
	}
}
