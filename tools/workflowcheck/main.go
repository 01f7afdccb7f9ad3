// Command workflowcheck is the Temporal SDK's workflowcheck (the
// contrib/tools/workflowcheck analyzer, unchanged) with one more check
// for code that runs inside workflow code behind dynamic calls.
//
// workflowcheck follows static calls only: it checks every function a
// workflow function calls by name, but not one reached through an
// interface or a function value. jinjabox's workflows reach the method
// runner statically, and the runner reaches each pipe kind through the
// kinds table (function values) and the engine through it: so upstream,
// no engine function is ever checked, and a map iteration planted in
// the engine's statement executor passes whatever the config says.
//
// -strict REGEXP closes that gap: in every analyzed package whose import
// path matches, every function (test files aside) must be deterministic
// by the same analysis, reachable or not. A function is reported where
// the non-determinism is: its own map range, goroutine or channel use,
// or its call into a package outside the strict set; calls into strict
// packages are reported in those packages (name them on the command
// line too). Exemptions are the -config file's decls, as upstream.
package main

import (
	"go/ast"
	"go/types"
	"regexp"
	"strings"

	"go.temporal.io/sdk/contrib/tools/workflowcheck/determinism"
	"go.temporal.io/sdk/contrib/tools/workflowcheck/workflow"
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/singlechecker"
)

func main() {
	c := workflow.NewChecker(workflow.Config{})
	a := c.NewAnalyzer()
	var strict regexpFlag
	a.Flags.Var(&strict, "strict", "import paths (a regexp) whose every function must be deterministic")
	upstream := a.Run
	a.Run = func(pass *analysis.Pass) (any, error) {
		res, err := upstream(pass)
		if err != nil || strict.re == nil || !strict.re.MatchString(pass.Pkg.Path()) {
			return res, err
		}
		checkStrict(pass, strict.re, c.IncludePosOnMessage)
		return res, nil
	}
	singlechecker.Main(a)
}

// checkStrict reports the non-deterministic functions of a strict
// package (upstream's determinism pass has already run on it).
func checkStrict(pass *analysis.Pass, strict *regexp.Regexp, showPos bool) {
	if strings.HasSuffix(pass.Pkg.Path(), ".test") {
		return // a generated test main
	}
	decls := map[string]*ast.FuncDecl{}
	for _, f := range pass.Files {
		name := pass.Fset.File(f.Pos()).Name()
		if strings.HasSuffix(name, "_test.go") {
			// the test variant of the package: the package itself
			// reports its functions
			return
		}
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok {
				if fn, ok := pass.TypesInfo.ObjectOf(fd.Name).(*types.Func); ok {
					decls[fn.FullName()] = fd
				}
			}
		}
	}
	cache := determinism.NewPackageLookupCache(pass)
	nonDet := cache.PackageNonDeterminisms(pass.Pkg)
	for name, fd := range decls {
		var own determinism.NonDeterminisms
		for _, r := range nonDet[name] {
			if call, ok := r.(*determinism.ReasonFuncCall); ok {
				if pkg := call.PackageName(); pkg == pass.Pkg.Path() || strict.MatchString(pkg) {
					continue // reported where it happens
				}
			}
			own = append(own, r)
		}
		if len(own) == 0 {
			continue
		}
		lines := own.AppendChildReasonLines(name, nil, 0, "  ", showPos, pass.Pkg, cache, map[string]bool{})
		pass.Report(analysis.Diagnostic{Pos: fd.Pos(), Message: "(strict) " + strings.Join(lines, "\n")})
	}
}

type regexpFlag struct{ re *regexp.Regexp }

func (f *regexpFlag) String() string {
	if f.re == nil {
		return ""
	}
	return f.re.String()
}

func (f *regexpFlag) Set(s string) error {
	re, err := regexp.Compile(s)
	f.re = re
	return err
}
