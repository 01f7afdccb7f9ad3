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
// line too). A function is also reported when it formats a pointer
// with %p (an address: it differs between a run and its replay), a
// check upstream has no way to express (fmt.Sprintf is deterministic
// by its table).
//
// extraIdentRefs adds to upstream's table what workflow code must not
// read either: the process environment and identity, and reflect's map
// iteration (the order of a map range, without a range statement).
//
// Exemptions are by line: a //workflowcheck:ignore comment on the line
// before a statement exempts that statement (upstream's semantics), and
// must say why after the marker, or it is itself reported. The -config
// file's decls (exemptions by name, which exempt a whole function and
// all it calls, so that code added to it later is never checked) are
// kept for the Go runtime only, which no comment can reach.
package main

import (
	"go/ast"
	"go/constant"
	"go/types"
	"regexp"
	"strings"

	"go.temporal.io/sdk/contrib/tools/workflowcheck/determinism"
	"go.temporal.io/sdk/contrib/tools/workflowcheck/workflow"
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/singlechecker"
	"golang.org/x/tools/go/types/typeutil"
)

func main() {
	c := workflow.NewChecker(workflow.Config{IdentRefs: workflow.DefaultIdentRefs.Clone().SetAll(extraIdentRefs)})
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

// extraIdentRefs are non-deterministic functions upstream's table does
// not list (true: non-deterministic wherever called).
var extraIdentRefs = determinism.IdentRefs{
	// The environment and the process differ between the worker that ran
	// a workflow task and the one replaying it.
	"os.Getenv":    true,
	"os.LookupEnv": true,
	"os.Environ":   true,
	"os.ExpandEnv": true,
	"os.Hostname":  true,
	"os.Getpid":    true,
	"os.Getwd":     true,
	// reflect iterates over a map in Go's random order, as a range does.
	"(reflect.Value).MapRange": true,
	"(reflect.Value).MapKeys":  true,
	"(reflect.Value).Seq":      true,
	"(reflect.Value).Seq2":     true,
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
	for _, f := range pass.Files {
		checkIgnores(pass, f)
		checkPointerFormats(pass, f)
	}
}

// checkIgnores reports a //workflowcheck:ignore comment that does not say
// why: an exemption is a claim a reviewer must be able to check.
func checkIgnores(pass *analysis.Pass, f *ast.File) {
	for _, g := range f.Comments {
		for _, c := range g.List {
			if rest, ok := strings.CutPrefix(c.Text, ignoreMarker); ok && len(strings.TrimSpace(rest)) < len("a reason") {
				pass.Report(analysis.Diagnostic{Pos: c.Pos(), Message: "(strict) " + ignoreMarker + " without its reason"})
			}
		}
	}
}

const ignoreMarker = "//workflowcheck:ignore"

// checkPointerFormats reports a call of a fmt function whose constant
// format has a %p verb: a pointer's address is not the same on replay.
func checkPointerFormats(pass *analysis.Pass, f *ast.File) {
	ignored := map[ast.Node]struct{}{}
	determinism.UpdateIgnoreMap(pass.Fset, f, ignored)
	ast.Inspect(f, func(n ast.Node) bool {
		if _, ok := ignored[n]; ok {
			return false
		}
		call, ok := n.(*ast.CallExpr)
		if !ok {
			return true
		}
		fn, ok := typeutil.Callee(pass.TypesInfo, call).(*types.Func)
		if !ok || fn.Pkg() == nil || fn.Pkg().Path() != "fmt" {
			return true
		}
		sig, ok := fn.Type().(*types.Signature)
		if !ok {
			return true
		}
		for i := range sig.Params().Len() {
			if sig.Params().At(i).Name() != "format" || i >= len(call.Args) {
				continue
			}
			tv := pass.TypesInfo.Types[call.Args[i]]
			if tv.Value != nil && tv.Value.Kind() == constant.String && hasPointerVerb(constant.StringVal(tv.Value)) {
				pass.Report(analysis.Diagnostic{Pos: call.Pos(), Message: "(strict) " + fn.FullName() + " formats a pointer with %p: an address differs on replay"})
			}
		}
		return true
	})
}

// hasPointerVerb reports whether a fmt format has a %p verb (flags,
// width, precision and argument indexes allowed between).
func hasPointerVerb(format string) bool {
	for i := 0; i < len(format); i++ {
		if format[i] != '%' {
			continue
		}
		j := i + 1
		for j < len(format) && strings.IndexByte("+-# 0123456789.*[]", format[j]) >= 0 {
			j++
		}
		if j < len(format) && format[j] == 'p' {
			return true
		}
		i = j
	}
	return false
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
