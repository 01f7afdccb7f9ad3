// Command scratchlint is the scratch-memory check of `make lint` and
// `make test` (issue 29, "scratch memory by construction"): in the
// engine's builtins and value model, an allocation whose size the input
// decides must be charged to the render's budget before it is made.
//
// It reports, outside test files:
//   - every []rune(x) of a string: a rune array is four bytes a byte of
//     input, the red team's favourite (maketrans, wordwrap); count or
//     walk the string instead;
//   - every make whose length or capacity is not a constant, and every
//     append inside a loop, unless the function has charged the budget
//     before it: a call whose name says it charges (Charge, Spent,
//     Mul'd charges through helpers named charge*/…Charged) earlier in the
//     function's body, or a parameter named c of the render's Ctx handed
//     to a charging helper on the same line.
//   - every append(dst, src...) and copy(dst, src) of a slice whose items
//     hold pointers: one runtime call that cannot be preempted, running a
//     write barrier on every item while the collector marks, which spins
//     until the call returns; vmem.Append and vmem.Copy move such items
//     in chunks, each call a preemption point;
//   - every append of single items holding pointers inside a loop, unless
//     the slice is vmem.Grown(s): a full slice's growth is the same one
//     unpreemptible copy of all it holds;
//   - every substring search of package strings or bytes (Index,
//     LastIndex, Contains, Count, Replace, Split, Cut and their kin) whose
//     needle is not a constant of at most 31 bytes: past the vectorised
//     brute force the standard library falls back to a Rabin-Karp hash
//     whose collisions anyone can make, quadratic in one uninterruptible
//     call; strutil.Index, LastIndex, Contains, Count, Replace and Split
//     are linear whatever the needle;
//   - every make of an array of structs holding pointers and a plain
//     word (a Value, a dict entry, a sort record) whose size is not a
//     constant, unless it is the argument of vmem.Fresh, and every
//     vmem.Fresh whose argument is not a make: a fresh array's pages are
//     written once before the write barrier's first read of them maps
//     the zero page (two faults and a TLB shootdown a page), and Fresh
//     on live items would zero their words. This rule also holds in
//     package engine, the evaluator. Its exception is //fresh:ok with
//     the reason, which the other rules' //scratch:ok does not cover.
//
// An exception is a //scratch:ok comment with its reason, on the line or
// the line above: the reason is required (a bare marker is reported).
// The check is structural, not a proof: it finds the allocation made
// before any charge, which is how every hole of the last two red-team
// rounds in this family looked.
package main

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/singlechecker"
)

// Analyzer is the scratch check.
var Analyzer = &analysis.Analyzer{
	Name: "scratchlint",
	Doc:  "reports input-sized allocations in engine/internal/builtins, engine/internal/strutil, engine/internal/vmem, engine/internal/vops and engine/value made before any budget charge",
	Run:  run,
}

func main() { singlechecker.Main(Analyzer) }

// checked are the packages the rule holds in.
var checked = []string{
	"github.com/jinjabox/jinjabox/engine/internal/builtins",
	"github.com/jinjabox/jinjabox/engine/internal/strutil",
	"github.com/jinjabox/jinjabox/engine/internal/vmem",
	"github.com/jinjabox/jinjabox/engine/internal/vops",
	"github.com/jinjabox/jinjabox/engine/value",
}

// freshOnly are the packages where only the fresh-array rule holds: the
// evaluator makes arrays of values but charges through its own paths.
var freshOnly = []string{
	"github.com/jinjabox/jinjabox/engine",
}

// charges reports whether a call's name says it charges the budget.
func charges(name string) bool {
	l := strings.ToLower(name)
	return strings.Contains(l, "charge") || name == "Spent" || name == "TrySpend" || name == "Spend"
}

func run(pass *analysis.Pass) (any, error) {
	all, fresh := false, false
	for _, p := range checked {
		if pass.Pkg.Path() == p {
			all, fresh = true, true
		}
	}
	for _, p := range freshOnly {
		if pass.Pkg.Path() == p {
			fresh = true
		}
	}
	if !fresh {
		return nil, nil
	}
	for _, f := range pass.Files {
		name := pass.Fset.File(f.Pos()).Name()
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		checkFresh(pass, f, markedLines(pass, f, "//fresh:ok"))
		if !all {
			continue
		}
		exempt := markedLines(pass, f, "//scratch:ok")
		for _, d := range f.Decls {
			fd, isFunc := d.(*ast.FuncDecl)
			if !isFunc || fd.Body == nil {
				continue
			}
			checkFunc(pass, fd.Body, exempt)
		}
	}
	return nil, nil
}

// markedLines are the lines a marker comment (//scratch:ok, //fresh:ok)
// covers: its own and the next; a marker without a reason is reported.
func markedLines(pass *analysis.Pass, f *ast.File, marker string) map[int]bool {
	lines := map[int]bool{}
	for _, cg := range f.Comments {
		for _, c := range cg.List {
			if !strings.HasPrefix(c.Text, marker) {
				continue
			}
			if strings.TrimSpace(strings.TrimPrefix(c.Text, marker)) == "" {
				pass.Reportf(c.Pos(), "%s needs its reason", marker)
				continue
			}
			l := pass.Fset.Position(c.Pos()).Line
			lines[l], lines[l+1] = true, true
		}
	}
	return lines
}

// checkFresh reports a make of a touchable array of non-constant size
// that vmem.Fresh does not wrap, and a vmem.Fresh of anything but a make.
func checkFresh(pass *analysis.Pass, f *ast.File, exempt map[int]bool) {
	wrapped := map[*ast.CallExpr]bool{}
	ast.Inspect(f, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok || !isFresh(pass, call.Fun) {
			return true
		}
		if len(call.Args) == 1 {
			if m, ok := ast.Unparen(call.Args[0]).(*ast.CallExpr); ok && isBuiltin(pass, m.Fun, "make") {
				wrapped[m] = true
				return true
			}
		}
		pass.Reportf(call.Pos(), "vmem.Fresh of something other than a make: it zeroes a word of each page, which on live items changes what they hold")
		return true
	})
	ast.Inspect(f, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok || !isBuiltin(pass, call.Fun, "make") || len(call.Args) < 2 || wrapped[call] || exempt[pass.Fset.Position(call.Pos()).Line] {
			return true
		}
		constant := true
		for _, a := range call.Args[1:] {
			if tv, ok := pass.TypesInfo.Types[a]; !ok || tv.Value == nil {
				constant = false
			}
		}
		if constant {
			return true
		}
		tv, ok := pass.TypesInfo.Types[call.Args[0]]
		if !ok {
			return true
		}
		sl, ok := tv.Type.Underlying().(*types.Slice)
		if !ok || !touchable(sl.Elem()) {
			return true
		}
		pass.Reportf(call.Pos(), "make of a fresh array of items holding pointers, its size from the input: wrap it in vmem.Fresh (its pages written once before the write barrier reads them), or say why not (//fresh:ok reason)")
		return true
	})
}

// isFresh reports whether fun is vmem.Fresh (Fresh inside package vmem).
func isFresh(pass *analysis.Pass, fun ast.Expr) bool {
	var id *ast.Ident
	switch e := fun.(type) {
	case *ast.Ident:
		id = e
	case *ast.SelectorExpr:
		id = e.Sel
	case *ast.IndexExpr:
		return isFresh(pass, e.X)
	default:
		return false
	}
	fn, ok := pass.TypesInfo.Uses[id].(*types.Func)
	return ok && fn.Name() == "Fresh" && fn.Pkg() != nil && fn.Pkg().Path() == "github.com/jinjabox/jinjabox/engine/internal/vmem"
}

// touchable reports whether an array of t is what vmem.Fresh touches: a
// struct or array holding pointers and a plain word (a number or a
// bool, in the item itself or a struct or array inside it) that a
// toucher can zero without a barrier.
func touchable(t types.Type) bool {
	switch t.Underlying().(type) {
	case *types.Struct, *types.Array:
		return hasPointers(t, map[types.Type]bool{}) && hasWord(t)
	}
	return false
}

// hasWord reports whether a value of type t holds a number or a bool
// outside any pointer, slice or string.
func hasWord(t types.Type) bool {
	switch u := t.Underlying().(type) {
	case *types.Basic:
		return u.Info()&(types.IsNumeric|types.IsBoolean) != 0
	case *types.Struct:
		for i := 0; i < u.NumFields(); i++ {
			if hasWord(u.Field(i).Type()) {
				return true
			}
		}
	case *types.Array:
		return u.Len() > 0 && hasWord(u.Elem())
	}
	return false
}

// checkFunc walks a function body in source order, remembering whether a
// charge was made yet.
func checkFunc(pass *analysis.Pass, body *ast.BlockStmt, exempt map[int]bool) {
	charged := false
	loops := 0
	var visit func(n ast.Node) bool
	report := func(pos token.Pos, format string, args ...any) {
		if exempt[pass.Fset.Position(pos).Line] {
			return
		}
		pass.Reportf(pos, format, args...)
	}
	visit = func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			// a closure is checked on its own, charged if its maker was
			saved := charged
			ast.Inspect(n.Body, visit)
			charged = saved
			return false
		case *ast.ForStmt, *ast.RangeStmt:
			loops++
			var b *ast.BlockStmt
			if fs, ok := n.(*ast.ForStmt); ok {
				b = fs.Body
				if fs.Init != nil {
					ast.Inspect(fs.Init, visit)
				}
				if fs.Cond != nil {
					ast.Inspect(fs.Cond, visit)
				}
			} else {
				rs := n.(*ast.RangeStmt)
				b = rs.Body
				ast.Inspect(rs.X, visit)
			}
			// a charge anywhere in the loop's body pays for its growth
			if containsCharge(b) {
				saved := charged
				charged = true
				ast.Inspect(b, visit)
				charged = saved || charged
			} else {
				ast.Inspect(b, visit)
			}
			loops--
			return false
		case *ast.CallExpr:
			fn := calleeName(n.Fun)
			if charges(fn) {
				charged = true
			}
			if conv, ok := runeConversion(pass, n); ok {
				report(conv, "[]rune of a string: four bytes a byte of input before any charge; walk the string (utf8.DecodeRuneInString) or count it")
			}
			if isBuiltin(pass, n.Fun, "make") && len(n.Args) >= 2 && !charged {
				for _, a := range n.Args[1:] {
					if tv, ok := pass.TypesInfo.Types[a]; !ok || tv.Value == nil {
						report(n.Pos(), "make with a size from the input before the function charged the budget: charge it first, or say why not (//scratch:ok reason)")
						break
					}
				}
			}
			if bulkPointerCopy(pass, n) {
				report(n.Pos(), "bulk copy of items holding pointers in one call the goroutine cannot be preempted in: use vmem.Append or vmem.Copy, or say why it stays small (//scratch:ok reason)")
			}
			if loops > 0 && growsPointers(pass, n) {
				report(n.Pos(), "append in a loop to a slice of items holding pointers: its growth is one copy the goroutine cannot be preempted in; grow it with vmem.Grown (append(vmem.Grown(s), x)), or say why it never grows large (//scratch:ok reason)")
			}
			if fn, ok := quadraticSearch(pass, n); ok {
				report(n.Pos(), "strings.%s with a needle that is not a short constant: the standard library's search is quadratic on colliding Rabin-Karp hashes past 31 bytes; use the strutil search (linear whatever the needle), or say why the needle stays short (//scratch:ok reason)", fn)
			}
			if isBuiltin(pass, n.Fun, "append") && loops > 0 && !charged {
				report(n.Pos(), "append in a loop before the function charged the budget: charge the growth first, or say why not (//scratch:ok reason)")
			}
		}
		return true
	}
	ast.Inspect(body, visit)
}

func containsCharge(n ast.Node) bool {
	found := false
	ast.Inspect(n, func(n ast.Node) bool {
		if c, ok := n.(*ast.CallExpr); ok && charges(calleeName(c.Fun)) {
			found = true
		}
		return !found
	})
	return found
}

func calleeName(e ast.Expr) string {
	switch e := e.(type) {
	case *ast.Ident:
		return e.Name
	case *ast.SelectorExpr:
		return e.Sel.Name
	case *ast.IndexExpr:
		return calleeName(e.X)
	}
	return ""
}

func isBuiltin(pass *analysis.Pass, fun ast.Expr, name string) bool {
	id, ok := fun.(*ast.Ident)
	if !ok || id.Name != name {
		return false
	}
	_, ok = pass.TypesInfo.Uses[id].(*types.Builtin)
	return ok
}

// runeConversion reports a []rune(x) conversion of a string x.
func runeConversion(pass *analysis.Pass, call *ast.CallExpr) (token.Pos, bool) {
	if len(call.Args) != 1 {
		return 0, false
	}
	tv, ok := pass.TypesInfo.Types[call.Fun]
	if !ok || !tv.IsType() {
		return 0, false
	}
	sl, ok := tv.Type.Underlying().(*types.Slice)
	if !ok {
		return 0, false
	}
	if b, ok := sl.Elem().Underlying().(*types.Basic); !ok || b.Kind() != types.Int32 {
		return 0, false
	}
	at, ok := pass.TypesInfo.Types[call.Args[0]]
	if !ok {
		return 0, false
	}
	if b, ok := at.Type.Underlying().(*types.Basic); ok && b.Info()&types.IsString != 0 {
		return call.Pos(), true
	}
	return 0, false
}

// bulkPointerCopy reports append(dst, src...) or copy(dst, src) of items
// that hold pointers.
func bulkPointerCopy(pass *analysis.Pass, call *ast.CallExpr) bool {
	isAppend := isBuiltin(pass, call.Fun, "append") && call.Ellipsis.IsValid()
	if !isAppend && !isBuiltin(pass, call.Fun, "copy") {
		return false
	}
	return len(call.Args) == 2 && pointerSlice(pass, call.Args[0])
}

// pointerSlice reports whether e is a slice whose items hold pointers.
func pointerSlice(pass *analysis.Pass, e ast.Expr) bool {
	tv, ok := pass.TypesInfo.Types[e]
	if !ok {
		return false
	}
	sl, ok := tv.Type.Underlying().(*types.Slice)
	return ok && hasPointers(sl.Elem(), map[types.Type]bool{})
}

// hasPointers reports whether a value of type t holds a pointer the
// collector scans.
func hasPointers(t types.Type, seen map[types.Type]bool) bool {
	if seen[t] {
		return false
	}
	seen[t] = true
	switch u := t.Underlying().(type) {
	case *types.Basic:
		return u.Kind() == types.String || u.Kind() == types.UnsafePointer
	case *types.Struct:
		for i := 0; i < u.NumFields(); i++ {
			if hasPointers(u.Field(i).Type(), seen) {
				return true
			}
		}
		return false
	case *types.Array:
		return u.Len() > 0 && hasPointers(u.Elem(), seen)
	}
	return true // pointers, slices, maps, channels, functions, interfaces
}

// growsPointers reports append(s, x...) of single items (no ellipsis) to
// a slice whose items hold pointers, where s is not vmem.Grown(...):
// when s is full, append copies all of it in one runtime call.
func growsPointers(pass *analysis.Pass, call *ast.CallExpr) bool {
	if !isBuiltin(pass, call.Fun, "append") || call.Ellipsis.IsValid() || len(call.Args) < 2 {
		return false
	}
	if inner, ok := call.Args[0].(*ast.CallExpr); ok && calleeName(inner.Fun) == "Grown" {
		return false
	}
	return pointerSlice(pass, call.Args[0])
}

// searches are the substring searches of packages strings and bytes, by
// the index of their needle argument.
var searches = map[string]int{
	"Index": 1, "LastIndex": 1, "Contains": 1, "Count": 1, "Replace": 1, "ReplaceAll": 1,
	"Split": 1, "SplitN": 1, "SplitAfter": 1, "SplitAfterN": 1, "Cut": 1,
}

// shortNeedle is the longest constant needle the standard library's
// search takes by brute force on every machine (bytealg.MaxLen without
// AVX2).
const shortNeedle = 31

// quadraticSearch reports a call of a strings or bytes substring search
// whose needle is not a constant of at most shortNeedle bytes.
func quadraticSearch(pass *analysis.Pass, call *ast.CallExpr) (string, bool) {
	sel, ok := call.Fun.(*ast.SelectorExpr)
	if !ok {
		return "", false
	}
	fn, ok := pass.TypesInfo.Uses[sel.Sel].(*types.Func)
	if !ok || fn.Pkg() == nil || (fn.Pkg().Path() != "strings" && fn.Pkg().Path() != "bytes") {
		return "", false
	}
	i, ok := searches[fn.Name()]
	if !ok || len(call.Args) <= i || fn.Type().(*types.Signature).Recv() != nil {
		return "", false
	}
	if tv, ok := pass.TypesInfo.Types[call.Args[i]]; ok && tv.Value != nil && tv.Value.Kind() == constant.String && len(constant.StringVal(tv.Value)) <= shortNeedle {
		return "", false
	}
	return fn.Name(), true
}
