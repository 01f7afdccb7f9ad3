package engine

import (
	"context"
	"flag"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/jinjabox/jinjabox/budget"
	"github.com/jinjabox/jinjabox/engine/internal/builtins"
	"github.com/jinjabox/jinjabox/engine/ordered"
	"github.com/jinjabox/jinjabox/engine/syntax"
	"github.com/jinjabox/jinjabox/policy"
)

// The calibration (docs/COSTS.md) holds the promise of the budget: the
// full default budget renders within calWallCeiling and calHeapCeiling
// on the development machine class, whatever the template. It drives
// every operation a template can reach (every registered filter, test
// and global, every plain-value method of the policy tables, every
// operator and every statement and expression kind) on adversarial
// inputs at growing sizes, and measures the wall time and the bytes
// allocated per unit charged. An operation over the ceiling is a budget
// hole: it works (or allocates) more than it charges.
//
// `make calibrate` runs it in full (-calibrate); plain `go test` runs the
// smoke version (TestCalibrationSmoke): every case at a tiny size renders
// as Jinja2 renders it and charges, and the cases cover the registries.
var (
	calibrateFlag = flag.Bool("calibrate", false, "run the full calibration and fail on an operation over the ceiling")
	calibrateRun  = flag.String("calibrate.run", "", "only calibrate the cases whose name matches this regexp")
	calibrateOut  = flag.String("calibrate.table", "", "write the calibration table (markdown) to this file")
	calibrateDump = flag.String("calibrate.dump", "", "write every case at the smoke size as JSON lines (for testdata/gen_calibration.py)")
)

// The ceilings: the full default budget within 250 ms and 256 MiB.
//
// Time is simple: every unit of every operation is held to 250 ms over
// the budget's units.
//
// The heap has one part apart, the output buffer (outbuf.go): its chunks
// and the string they are joined into are both live at the end, twice
// the output plus at most one chunk of slack, and the output is bounded
// by output_bytes. Every byte written is charged at least one unit by
// the operation that writes it (static text, printing, escaping: each
// charges the bytes it writes; the calibration checks it case by case).
// So the units that write output are never more than the budget's units,
// and at most output_bytes of them can bring the buffer's two bytes a
// byte. Bounding the heap is a small linear programme: with r the output
// bytes a unit of an operation and b its own bytes a unit, the worst
// render spends output_bytes on writing at the writers' own rate
// (calOutputOwn, a ceiling the writing cases are held to) and the rest
// at the ceiling: calHeapCeiling*(units-output) + (2+calOutputOwn)*output
// + one chunk = 256 MiB. An operation passes when b <= calHeapCeiling*(1-r)
// + calOutputOwn*r: an operation that writes nothing has the whole
// ceiling, one that writes a byte a unit has calOutputOwn.
const (
	calWall = 250 * time.Millisecond
	calHeap = 256 << 20
	// calOutputOwn is what an operation writing a byte a unit may
	// allocate besides the buffer, in bytes a unit (stmt:Text and
	// stmt:Output measure about 0.1).
	calOutputOwn = 0.25
)

var (
	calWallCeiling = float64(calWall.Nanoseconds()) / float64(budget.DefaultWorkUnits) // ns a unit
	calHeapCeiling = (float64(calHeap-outChunk) - (2+calOutputOwn)*float64(budget.DefaultOutputBytes)) /
		float64(budget.DefaultWorkUnits-budget.DefaultOutputBytes) // bytes a unit, for an operation that writes nothing
)

// calHeapAllowed is the heap ceiling of an operation writing out bytes a
// unit (out <= 1: each byte written is charged).
func calHeapAllowed(out float64) float64 {
	return calHeapCeiling*(1-out) + calOutputOwn*out
}

// calCaptureCeiling is the one exception to calHeapCeiling, the capture
// ({% set %} blocks, and the same buffer under macro calls and filter
// blocks). A capture holds what it captured in chunks and joins them
// into one string when it ends: two bytes a byte written, at one unit a
// byte, plus the last chunk's room. The join cannot be charged more: the
// red team's guard redteam/alloc/capture-buffer-130mb renders a 130 MB
// capture at the default budget with 2.4% of it left, and charging the
// join that much would still leave a capture at 1.96 bytes a unit. So a
// render that captures the bulk of its budget is bounded by this
// ceiling instead: 2.10 x 112 Mi + the output's 37 MiB = 272 MiB
// (calImpliedHeap), which docs/COSTS.md states as the bound.
const calCaptureCeiling = 2.10

// calImpliedHeap is the worst heap the ceilings allow a render: the
// capture ceiling on all but the output's units, and the output's.
var calImpliedHeap = calCaptureCeiling*float64(budget.DefaultWorkUnits-budget.DefaultOutputBytes) +
	(2+calOutputOwn)*float64(budget.DefaultOutputBytes) + outChunk

// Measuring: each point is the best of calRuns renders (noise on a shared
// machine only ever adds time), with the case's operation repeated until
// it charges about calTarget units, so fixed costs (parsing, the copy of
// the data, the set-up of the inputs) are a small part, and what is left
// of them is taken out by subtracting the same render with zero
// repetitions.
const (
	calRuns   = 5
	calTarget = 4 << 20
	calMaxRep = 1 << 20
	// a render slower than this stops a case growing (it is reported at
	// the sizes it reached; a hole that large is over the ceiling anyway)
	calSlowRender = 3 * time.Second
)

// calTemplates is the trusted set the statement cases include, import
// and extend.
var calTemplates = map[string]string{
	"calbase": "{% block b %}<{{ S|length }}>{% endblock %}",
	"calinc":  "{{ S|length }}",
	"calmac":  "{% macro hello(n) %}{{ n|length }}{% endmacro %}",
}

// calEnv is the environment the calibration renders in: the defaults and
// the trusted set.
func calEnv(t testing.TB) *Environment {
	env, err := NewEnvironment(Options{Templates: calTemplates})
	if err != nil {
		t.Fatal(err)
	}
	return env
}

// calPoint is one measurement: an operation at one input size.
type calPoint struct {
	n        int
	reps     int
	units    int64   // charged by the repetitions (parse included)
	nsUnit   float64 // wall time a unit
	byteUnit float64 // bytes allocated a unit (the output buffer left out)
	outUnit  float64 // output bytes written a unit
	err      string  // a render that failed or stopped the case
}

// calRun is one render of a case: the units spent (parse and render, one
// meter), the time, the bytes allocated and the output's length.
type calRun struct {
	units int64
	d     time.Duration
	alloc uint64
	out   int
}

// calMeasure renders the case at size n with reps repetitions. The time is the smaller of the wall time and the process's
// CPU time: on a machine whose cores other processes share the wall time
// grows and the CPU time does not, and where the collector runs on
// another core beside the render the CPU time grows and the wall time
// does not, so the smaller is the closer to the wall time on an idle
// machine of the class.
func calMeasure(env *Environment, c *calCase, n, reps int, data map[string]any) (calRun, error) {
	src := c.template(n, reps, false)
	var before, after runtime.MemStats
	if *calibrateFlag {
		// a collection before each point (not in the smoke test, which
		// reads no bytes): every point starts from the same heap
		runtime.GC()
	}
	runtime.ReadMemStats(&before)
	ctx, cancel := context.WithTimeout(context.Background(), 4*calSlowRender)
	defer cancel()
	start, cpu0 := time.Now(), cpuTime()
	m := budget.NewMeter(env.limitsFor(RenderOptions{}))
	t, err := env.parse(c.name, src, m)
	var res Result
	if err == nil {
		res, err = t.render(data, m, &RenderOptions{Context: ctx}, nil)
	}
	d := time.Since(start)
	if cpu := cpuTime() - cpu0; cpu > 0 && cpu < d {
		d = cpu
	}
	runtime.ReadMemStats(&after)
	alloc := after.TotalAlloc - before.TotalAlloc
	if err == nil && *calibrateFlag {
		// the output buffer is bounded apart (calHeapCeiling): its
		// growth is left out of the bytes
		grown := min(outputGrowth(int(min(t.info.staticBytes+256, m.Limits.OutputBytes)), len(res.Output), reps), alloc)
		alloc -= grown
	}
	return calRun{m.Used(), d, alloc, len(res.Output)}, err
}

// outputGrowth is what the render's output buffer allocates to grow from
// initial to total bytes written in reps equal parts: the same growth,
// replayed on an outBuf and measured.
func outputGrowth(initial, total, reps int) uint64 {
	reps = max(reps, 1)
	part := strings.Repeat("x", total/reps)
	rest := strings.Repeat("x", total-reps*len(part))
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	var b outBuf
	b.cur = make([]byte, 0, min(initial, outChunk))
	for i := 0; i < reps; i++ {
		b.writeString(part)
	}
	b.writeString(rest)
	_ = b.String()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// calibrate measures c at each of its sizes: the best of calRuns of the
// case with its repetitions minus the same with none.
func calibrate(env *Environment, c *calCase) []calPoint {
	var pts []calPoint
	for _, n := range c.sizes() {
		data := c.data(n)
		pt := calPoint{n: n}
		r0, err := calMeasure(env, c, n, 0, data)
		if err == nil {
			var r1 calRun
			r1, err = calMeasure(env, c, n, 1, data)
			if err == nil && r1.d > calSlowRender {
				err = fmt.Errorf("one repetition took %v", r1.d)
			}
			if err == nil {
				per := r1.units - r0.units
				pt.reps = int(min(max(calTarget/max(per, 1), 1), calMaxRep))
			}
		}
		if err != nil {
			pt.err = err.Error()
			pts = append(pts, pt)
			break
		}
		bestD, bestD0 := time.Duration(math.MaxInt64), time.Duration(math.MaxInt64)
		bestA, bestA0 := uint64(math.MaxUint64), uint64(math.MaxUint64)
		var rk, rz calRun
		for run := 0; run < calRuns && err == nil; run++ {
			rk, err = calMeasure(env, c, n, pt.reps, data)
			if err == nil {
				rz, err = calMeasure(env, c, n, 0, data)
			}
			bestD, bestD0 = min(bestD, rk.d), min(bestD0, rz.d)
			bestA, bestA0 = min(bestA, rk.alloc), min(bestA0, rz.alloc)
		}
		if err == nil && int64(rk.out) > rk.units {
			// the heap ceiling rests on it (calHeapCeiling)
			err = fmt.Errorf("wrote %d bytes on %d units: every byte written must be charged", rk.out, rk.units)
		}
		if err != nil {
			pt.err = err.Error()
			pts = append(pts, pt)
			break
		}
		pt.units = rk.units - r0.units
		pt.nsUnit = float64(max(bestD-bestD0, 0).Nanoseconds()) / float64(pt.units)
		if bestA > bestA0 {
			pt.byteUnit = float64(bestA-bestA0) / float64(pt.units)
		}
		pt.outUnit = min(float64(rk.out-rz.out)/float64(pt.units), 1)
		pts = append(pts, pt)
		if bestD > calSlowRender {
			break
		}
	}
	return pts
}

// calRetries is how many more times a case over a ceiling is measured.
// A point's time is bimodal on the cases that allocate megabytes a render
// (source-size cases at n=16384, a repetition or two a render): whether
// a collection cycle lands inside the timed render moves the same work
// by up to three times (stmt:Text 0.9 or 3.1 ns a unit, dict/keywords
// 0.9 or 2.2, on an idle machine), the same way run after run of a
// process and differently in the next. Work that is really over the
// ceiling is over in every measurement; four more sets of calRuns keep a
// case that is not from failing on an unlucky one.
const calRetries = 4

// calBest keeps, size by size, the better of two measurements of a case
// (an error in either stays).
func calBest(a, b []calPoint) []calPoint {
	out := append([]calPoint(nil), a...)
	for i := range out {
		if i >= len(b) || out[i].err != "" {
			continue
		}
		if b[i].err != "" {
			out[i].err = b[i].err
			continue
		}
		out[i].nsUnit = min(out[i].nsUnit, b[i].nsUnit)
		out[i].byteUnit = min(out[i].byteUnit, b[i].byteUnit)
	}
	return out
}

// calWorst is a case's worst point for time and for memory.
type calWorst struct {
	ns    float64 // ns a unit, at n atNs
	atNs  int
	bytes float64 // B a unit, at n atB, where the ceiling is heapCeil
	heap  float64
	atB   int
}

// over reports whether the worst point is over a ceiling.
func (w calWorst) over() bool { return w.ns > calWallCeiling || w.bytes > w.heap }

// worst finds the slowest point and the point whose bytes come nearest
// its ceiling (or go furthest over).
func worst(c *calCase, pts []calPoint) calWorst {
	w := calWorst{heap: calHeapCeiling}
	for _, p := range pts {
		if p.err != "" {
			continue
		}
		if p.nsUnit > w.ns {
			w.ns, w.atNs = p.nsUnit, p.n
		}
		ceil := calHeapAllowed(p.outUnit)
		if c.capture {
			ceil = calCaptureCeiling
		}
		if p.byteUnit/ceil > w.bytes/w.heap {
			w.bytes, w.heap, w.atB = p.byteUnit, ceil, p.n
		}
	}
	return w
}

// TestCalibrate is `make calibrate`: every case at its growing sizes,
// failing for each operation over either ceiling. Skipped without
// -calibrate (it takes minutes; the smoke version runs always).
func TestCalibrate(t *testing.T) {
	if !*calibrateFlag {
		t.Skip("the full calibration runs with -calibrate (make calibrate)")
	}
	env := calEnv(t)
	t.Logf("ceilings: %.3f ns a unit; %.3f bytes a unit (%.3f for captures): the full default budget within %v and %d MiB (%.0f MiB for a render that captures most of it)",
		calWallCeiling, calHeapCeiling, calCaptureCeiling, calWall, calHeap>>20, calImpliedHeap/(1<<20))
	var filter *regexp.Regexp
	if *calibrateRun != "" {
		filter = regexp.MustCompile(*calibrateRun)
	}
	type row struct {
		c   *calCase
		pts []calPoint
		w   calWorst
	}
	var rows []row
	cases := calCases()
	for i := range cases {
		c := &cases[i]
		if filter != nil && !filter.MatchString(c.name) {
			continue
		}
		pts := calibrate(env, c)
		w := worst(c, pts)
		// a case over a ceiling is measured twice more, keeping each
		// size's best: a busy machine can slow every run of one point
		for retry := 0; retry < calRetries && w.over(); retry++ {
			pts = calBest(pts, calibrate(env, c))
			w = worst(c, pts)
		}
		rows = append(rows, row{c, pts, w})
		over := ""
		if w.over() {
			over = "  OVER"
		}
		t.Logf("%-40s %7.3f ns/unit (n=%d) %7.3f B/unit (n=%d, ceiling %.3f)%s", c.name, w.ns, w.atNs, w.bytes, w.atB, w.heap, over)
		for _, p := range pts {
			if p.err != "" {
				t.Errorf("%s: n=%d: %s", c.name, p.n, p.err)
			}
		}
		if w.ns > calWallCeiling {
			t.Errorf("%s: %.3f ns a unit at n=%d, over the ceiling of %.3f: the operation works more than it charges", c.name, w.ns, w.atNs, calWallCeiling)
		}
		if w.bytes > w.heap {
			t.Errorf("%s: %.3f bytes a unit at n=%d, over its ceiling of %.3f: the operation allocates more than it charges", c.name, w.bytes, w.atB, w.heap)
		}
	}
	if *calibrateOut == "" {
		return
	}
	var sb strings.Builder
	fmt.Fprintf(&sb, "| operation | case | sizes | units (largest) | ns/unit | B/unit | its B/unit ceiling |\n| --- | --- | --- | ---: | ---: | ---: | ---: |\n")
	for _, r := range rows {
		var sizes []string
		var last int64
		for _, p := range r.pts {
			sizes = append(sizes, strconv.Itoa(p.n))
			if p.err == "" {
				last = p.units
			}
		}
		mark := func(v, ceil float64) string {
			s := strconv.FormatFloat(v, 'f', 3, 64)
			if v > ceil {
				s = "**" + s + "**"
			}
			return s
		}
		fmt.Fprintf(&sb, "| `%s` | %s | %s | %s | %s | %s | %.3f |\n", r.c.op, strings.ReplaceAll(r.c.name, "|", "\\|"),
			strings.Join(sizes, ", "), budget.Commas(last), mark(r.w.ns, calWallCeiling), mark(r.w.bytes, r.w.heap), r.w.heap)
	}
	if err := os.WriteFile(*calibrateOut, []byte(sb.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}

// calGolden reads testdata/calibration_golden.json: what Jinja2 renders
// for every case at the smoke size (testdata/gen_calibration.py).
func calGolden(t *testing.T) map[string]calGoldenRow {
	b, err := os.ReadFile("testdata/calibration_golden.json")
	if err != nil {
		t.Fatal(err)
	}
	return decodeCalGolden(t, b)
}

// TestCalibrationSmoke is the fast version of the calibration, run by go
// test: the cases cover every registered filter, test and global, every
// method of the policy tables, every operator and every statement and
// expression kind (a newly added one without a case fails here); each
// case uses the operation it is named for, charges for each repetition,
// and renders at the smoke size what Jinja2 renders.
func TestCalibrationSmoke(t *testing.T) {
	env := calEnv(t)
	cases := calCases()
	if *calibrateDump != "" {
		dumpCalCases(t, cases)
		return
	}
	golden := calGolden(t)
	have := map[string]bool{}
	names := map[string]bool{}
	for i := range cases {
		c := &cases[i]
		if names[c.name] {
			t.Errorf("case %s twice", c.name)
		}
		names[c.name] = true
		have[c.op] = true
		n := calSmokeN
		data := c.data(n)
		r0, err0 := calMeasure(env, c, n, 0, data)
		r1, err1 := calMeasure(env, c, n, 1, data)
		r2, err2 := calMeasure(env, c, n, 2, data)
		u0, u1, u2 := r0.units, r1.units, r2.units
		if err0 != nil || err1 != nil || err2 != nil {
			t.Errorf("%s: %v %v %v", c.name, err0, err1, err2)
			continue
		}
		if u1 <= u0 || u2 <= u1 {
			t.Errorf("%s: units %d, %d, %d for 0, 1, 2 repetitions: each repetition must charge", c.name, u0, u1, u2)
		}
		if int64(r2.out) > u2 {
			// the heap ceiling rests on it (calHeapCeiling)
			t.Errorf("%s: wrote %d bytes on %d units: every byte written must be charged", c.name, r2.out, u2)
		}
		src := c.template(n, 1, true)
		// parsed as the environment parses (its static pass adds the
		// nodes it folds, syntax.Fold)
		tmpl, err := env.Parse(c.name, src)
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		if used := calUses(tmpl.tree); !used[c.use()] {
			t.Errorf("%s: the template does not use %s", c.name, c.use())
		}
		res, err := env.RenderString(c.name, src, data, RenderOptions{})
		g, ok := golden[c.name]
		switch {
		case !ok:
			t.Errorf("%s: no golden output (run testdata/gen_calibration.py)", c.name)
		case g.Src != src:
			t.Errorf("%s: the golden was made from another template (run testdata/gen_calibration.py)", c.name)
		case err != nil:
			t.Errorf("%s: %v", c.name, err)
		case g.Error != "":
			t.Errorf("%s: Jinja2 raised %s", c.name, g.Error)
		case c.noOracle:
		case res.Output != g.Out:
			t.Errorf("%s: got %q, Jinja2 %q", c.name, res.Output, g.Out)
		}
	}
	for _, op := range calRequired(t) {
		if !have[op] {
			t.Errorf("no calibration case for %s (add one to calCases)", op)
		}
	}
}

// calRequired is every operation the calibration must cover: the builtin
// registries, the policy tables and, read from the engine's own source,
// every operator the evaluator dispatches and every node kind of the AST.
func calRequired(t *testing.T) []string {
	var ops []string
	for _, n := range ordered.Keys(builtins.Filters) {
		ops = append(ops, "filter:"+n)
	}
	for _, n := range ordered.Keys(builtins.Tests) {
		ops = append(ops, "test:"+n)
	}
	for _, n := range ordered.Keys(builtins.GlobalFuncs) {
		ops = append(ops, "global:"+n)
	}
	for _, r := range []policy.Receiver{policy.Str, policy.Markup, policy.Dict, policy.List, policy.Tuple, policy.Int, policy.Float} {
		for _, m := range policy.Methods(r) {
			ops = append(ops, "method:"+r.String()+"."+m.Name)
		}
	}
	ops = append(ops, evaluatorOperators(t)...)
	ops = append(ops, astKinds(t)...)
	return ops
}

// evaluatorOperators reads the operators the evaluator dispatches from
// expr.go: the string cases of every switch on an Op field, keyed by the
// function that holds it (unary in evalNode, evalBinary, compare).
func evaluatorOperators(t *testing.T) []string {
	fs := token.NewFileSet()
	f, err := parser.ParseFile(fs, "expr.go", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	kinds := map[string]string{"evalNode": "unary", "evalBinary": "binary", "compare": "compare"}
	var ops []string
	for _, d := range f.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok || kinds[fd.Name.Name] == "" {
			continue
		}
		kind := kinds[fd.Name.Name]
		ast.Inspect(fd, func(n ast.Node) bool {
			sw, ok := n.(*ast.SwitchStmt)
			if !ok {
				return true
			}
			if sel, ok := sw.Tag.(*ast.SelectorExpr); !ok || sel.Sel.Name != "Op" {
				return true
			}
			for _, s := range sw.Body.List {
				for _, e := range s.(*ast.CaseClause).List {
					if lit, ok := e.(*ast.BasicLit); ok && lit.Kind == token.STRING {
						op, _ := strconv.Unquote(lit.Value)
						ops = append(ops, kind+":"+op)
					}
				}
			}
			return true
		})
	}
	if len(ops) < 20 {
		t.Fatalf("read %d operators from expr.go: the evaluator's dispatch moved (update evaluatorOperators)", len(ops))
	}
	return ops
}

// astKinds reads the node kinds from syntax/ast.go: every type with a
// stmtNode or exprNode method.
func astKinds(t *testing.T) []string {
	fs := token.NewFileSet()
	f, err := parser.ParseFile(fs, filepath.Join("syntax", "ast.go"), nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	var kinds []string
	for _, d := range f.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok || fd.Recv == nil || len(fd.Recv.List) != 1 {
			continue
		}
		star, ok := fd.Recv.List[0].Type.(*ast.StarExpr)
		if !ok {
			continue
		}
		name := star.X.(*ast.Ident).Name
		switch fd.Name.Name {
		case "stmtNode":
			kinds = append(kinds, "stmt:"+name)
		case "exprNode":
			if name == "RegexLit" {
				// lexed in the nunjitsu mode only, which the calibration's
				// Jinja2 oracle cannot render: evaluating it is one step
				// and a small object, and what it does (replace, split,
				// test) runs on the regex filters' calibrated charges
				// (compileFlagged, chargeScan, eachMatch; regex_replace,
				// regex_findall and regex_search cover them)
				continue
			}
			kinds = append(kinds, "expr:"+name)
		}
	}
	if len(kinds) < 25 {
		t.Fatalf("read %d node kinds from syntax/ast.go (update astKinds)", len(kinds))
	}
	sort.Strings(kinds)
	return kinds
}

// calUses is what a parsed template uses, in the terms of calCase.use.
func calUses(tree *syntax.Template) map[string]bool {
	used := map[string]bool{}
	var walk func(n syntax.Node)
	walk = func(n syntax.Node) {
		typ := fmt.Sprintf("%T", n)
		typ = typ[strings.LastIndex(typ, ".")+1:]
		if _, ok := n.(syntax.Stmt); ok {
			used["stmt:"+typ] = true
		} else {
			used["expr:"+typ] = true
		}
		switch n := n.(type) {
		case *syntax.Filter:
			used["filter:"+n.Name] = true
		case *syntax.Test:
			used["test:"+n.Name] = true
		case *syntax.Const:
			if n.Value.IsString() {
				// a test named by a symbol is reached through select
				used["test:"+n.Value.Str()] = true
			}
		case *syntax.Unary:
			used["unary:"+n.Op] = true
		case *syntax.Binary:
			used["binary:"+n.Op] = true
		case *syntax.Compare:
			for _, o := range n.Ops {
				used["compare:"+o.Op] = true
			}
		case *syntax.Attr:
			used["attr:"+n.Name] = true
		case *syntax.Name:
			used["global:"+n.Name] = true
		}
		syntax.EachChild(n, walk)
	}
	for _, s := range tree.Body {
		walk(s)
	}
	return used
}
