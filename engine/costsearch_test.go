package engine

import (
	"flag"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/jinjabox/jinjabox/engine/internal/builtins"
	"github.com/jinjabox/jinjabox/engine/ordered"
	"github.com/jinjabox/jinjabox/policy"
)

// The adversarial cost search (`make costsearch`; docs/COSTS.md, "Cost
// search"). The calibration (calibrate_test.go) measures inputs someone
// chose, one or two shapes an operation; each red-team round found a
// shape nobody chose. The search chooses none: for every filter, test,
// global, plain-value method and operator it tries every receiver of a
// pool of input shapes (ASCII, multi-byte and astral strings, words,
// lines, HTML, dense needles, format fields, lists of ints, strings and
// dicts, nested lists, dicts, numbers, Markup, tuples, undefined) with
// no argument, one argument of a pool (small and input-sized strings,
// needles, `chars` sets, widths, counts, lists, dicts, filter and
// attribute names, keywords) or two, keeps every combination that
// renders at a tiny size (the shape discovery: no signature is written
// by hand, so a new builtin is searched the day it is registered), and
// grows each survivor geometrically (10^3 to 10^7 characters, lists to
// the copy-in's 100,000 entries), measuring per unit charged the time and
// the bytes allocated. An operation passes when every point is under the
// calibration's ceilings (calWallCeiling, calHeapAllowed) and a render
// the budget refuses is refused within calWall: a refusal that prices
// its work by doing it is a hole too. It reports, per operation, the
// worst shape, and how its time a unit grows with the input (a cost
// that grows faster than the units shows as a ratio over 1 between the
// largest and the smallest point).
//
// `go test` runs the smoke (TestCostSearchSmoke): the discovery of every
// operation (each must have a shape that renders, so the search covers
// the registries) and the growth of a seeded sample of shapes to 10^4,
// checked on the bytes a unit, which do not depend on the machine's
// load. Time is checked only by the full search, on an idle machine.
var (
	costSearchFlag  = flag.Bool("costsearch", false, "run the full adversarial cost search")
	costSearchRun   = flag.String("costsearch.run", "", "only search operations whose name matches this regexp")
	costSearchTable = flag.String("costsearch.table", "", "write the worst shape per operation (markdown) to this file")
	costSearchMax   = flag.Int("costsearch.max", 10_000_000, "largest input size of the full search")
	costSearchShape = flag.String("costsearch.shape", "", "only search shapes (receiver and arguments, as reported) matching this regexp")
)

// csEnv is the calibration's environment with the regular-expression
// filters enabled.
func csEnv(t testing.TB) *Environment {
	env, err := NewEnvironment(Options{Templates: calTemplates, Regex: true})
	if err != nil {
		t.Fatal(err)
	}
	return env
}

// csShape is one input of the search: a name the template reads and the
// data (or setup statement) that makes it at size n.
type csShape struct {
	name string
	// data is the value at size n, copied in (nil: a setup statement).
	data func(n int) any
	// setup, for values data cannot carry (Markup, tuples): a statement
	// before the loop, at size n.
	setup func(n int) string
	// maxN caps the size (lists: the copy-in's entries; source-sized
	// values: the source limit).
	maxN int
}

func (s *csShape) size(n int) int {
	if s.maxN > 0 && n > s.maxN {
		return s.maxN
	}
	return n
}

// csRepeat is s repeated to about n bytes.
func csRepeat(s string, n int) string { return strings.Repeat(s, max(n/len(s), 1)) }

// csListN caps a list's length: two of them stay under the copy-in's
// 100,000 entries, and a list of dicts counts three entries an item.
const csListN = 30_000

// csReceivers is the pool of values an operation is applied to.
var csReceivers = []csShape{
	{name: "SA", data: func(n int) any { return strings.Repeat("a", n) }},
	{name: "SW", data: func(n int) any { return csRepeat("lorem ipsum dolor ", n) }},
	{name: "SM", data: func(n int) any { return csRepeat("é", n) }},
	{name: "SX", data: func(n int) any { return csRepeat("😀", n) }},
	{name: "SL", data: func(n int) any { return csRepeat("ab\n", n) }},
	{name: "SH", data: func(n int) any { return csRepeat("<b>x</b>&", n) }},
	{name: "SD", data: func(n int) any { return csRepeat("aab", n) }},
	{name: "SF", data: func(n int) any { return csRepeat("{0}%s", n) }},
	{name: "SS", data: func(n int) any { return csRepeat(" \t", n) }},
	// SC is what a repr escapes: control bytes, a backslash, quotes and a
	// non-printable code point (a repr is up to 4 bytes a byte of it)
	{name: "SC", data: func(n int) any { return csRepeat("\x01\\'\"\u200b", n) }},
	// SE is unknown entity names of the longest length html's pattern
	// takes (each was looked up at every length: 15 ns a unit)
	{name: "SE", data: func(n int) any { return csRepeat("&"+strings.Repeat("z", 31)+" &amp;", n) }},
	// SP and PP are format specs whose precision is the input's size
	// (strconv computed each zero past a float's exact digits: 20 to 30 ns
	// a unit); '#g' keeps the zeros 'g' strips
	{name: "SP", data: func(n int) any { return "{:." + strconv.Itoa(n) + "e}" }},
	{name: "PP", data: func(n int) any { return "%#." + strconv.Itoa(n) + "g" }},
	{name: "SN", data: func(n int) any { return strings.Repeat("9", min(n, 4000)) }, maxN: 4000},
	{name: "LI", data: func(n int) any { return csInts(n) }, maxN: csListN},
	{name: "LS", data: func(n int) any { return csStrs(n) }, maxN: csListN},
	{name: "LD", data: func(n int) any { return csDicts(n) }, maxN: csListN},
	{name: "LN", data: func(n int) any { return csNested(min(n, 90)) }, maxN: 90},
	{name: "DS", data: func(n int) any { return csDict(n) }, maxN: csListN},
	{name: "I", data: func(n int) any { return n }},
	{name: "F", data: func(n int) any { return float64(n) + 0.5 }},
	{name: "MK", setup: func(int) string { return "{% set MK = SH|safe %}" }},
	{name: "TU", setup: func(n int) string { return "{% set TU = (" + calInts(min(n, 4000), ", ") + ",) %}" }, maxN: 4000},
	{name: "UN"}, // a name no data defines: undefined
}

// csArgs is the pool of arguments: literals and input-sized names.
var csArgs = []csShape{
	{name: "'a'"}, {name: "'aa'"}, {name: "'b'"}, {name: "' '"}, {name: "'upper'"},
	{name: "2"}, {name: "0"}, {name: "-1"}, {name: "true"}, {name: "'%s'"},
	{name: "attribute='a'"}, {name: "[1, 2]"}, {name: "'(a|aa)*b'"},
	{name: "N", data: func(n int) any { return n }},
	{name: "AS", data: func(n int) any { return csRepeat("ab", n) }},
	{name: "AC", data: func(n int) any { return strings.Repeat("b", n) + "a" }},
	// EQ is SA's text in an array of its own: a comparison of the two
	// reads every byte (sameas compared them uncharged; a needle or key of
	// another text differs at its first byte or its length)
	{name: "EQ", data: func(n int) any { return strings.Repeat("a", n) }},
	{name: "AL", data: func(n int) any { return csStrs(n) }, maxN: csListN},
	{name: "AD", data: func(n int) any { return csDict(n) }, maxN: csListN},
}

// csArgs2 is the smaller pool of the second argument.
var csArgs2 = []string{"'a'", "2", "N", "AS", "true", "'b'"}

func csInts(n int) []any {
	out := make([]any, n)
	for i := range out {
		out[i] = (i * 7919) % (n + 1)
	}
	return out
}

func csStrs(n int) []any {
	out := make([]any, n)
	for i := range out {
		out[i] = "w" + strconv.Itoa((i*7919)%(n+1))
	}
	return out
}

func csDicts(n int) []any {
	out := make([]any, n)
	for i := range out {
		out[i] = map[string]any{"a": (i * 31) % 97, "b": "x" + strconv.Itoa(i%13)}
	}
	return out
}

func csDict(n int) map[string]any {
	d := make(map[string]any, n)
	for i := range n {
		d["k"+strconv.Itoa(i)] = i
	}
	return d
}

func csNested(depth int) any {
	var v any = []any{1, "x"}
	for range depth {
		v = []any{v, 2}
	}
	return v
}

// csOp is one searched operation and how a template applies it to a
// receiver and arguments.
type csOp struct {
	op   string // as calRequired names it
	expr func(recv string, args []string) string
	// noRecv: the operation takes no receiver (globals)
	noRecv bool
	// recvs limits the receivers (a method's receiver type)
	recvs []string
}

func csCall(args []string) string { return "(" + strings.Join(args, ", ") + ")" }

// csOps is every operation of calRequired but the statement and
// expression kinds (the calibration's own cases cover those).
func csOps(t *testing.T) []csOp {
	var ops []csOp
	filters := ordered.Keys(builtins.Filters)
	filters = append(filters, ordered.Keys(builtins.RegexFilters)...) // csEnv enables them
	for _, n := range filters {
		ops = append(ops, csOp{op: "filter:" + n, expr: func(r string, a []string) string {
			if len(a) == 0 {
				return r + "|" + n
			}
			return r + "|" + n + csCall(a)
		}})
	}
	ident := regexp.MustCompile(`^[a-z_]+$`)
	for _, n := range ordered.Keys(builtins.Tests) {
		ops = append(ops, csOp{op: "test:" + n, expr: func(r string, a []string) string {
			if !ident.MatchString(n) {
				// a test named by a symbol is reached through select
				return "([" + r + "]|select(" + strings.Join(append([]string{strconv.Quote(n)}, a...), ", ") + ")|list)"
			}
			if len(a) == 0 {
				return r + " is " + n
			}
			return r + " is " + n + csCall(a)
		}})
	}
	for _, n := range ordered.Keys(builtins.GlobalFuncs) {
		ops = append(ops, csOp{op: "global:" + n, noRecv: true, expr: func(_ string, a []string) string { return n + csCall(a) }})
	}
	recvOf := map[policy.Receiver][]string{
		policy.Str:    {"SA", "SW", "SM", "SX", "SL", "SH", "SD", "SF", "SS", "SN"},
		policy.Markup: {"MK"},
		policy.Dict:   {"DS"},
		policy.List:   {"LI", "LS", "LD", "LN"},
		policy.Tuple:  {"TU"},
		policy.Int:    {"I"},
		policy.Float:  {"F"},
	}
	for _, r := range []policy.Receiver{policy.Str, policy.Markup, policy.Dict, policy.List, policy.Tuple, policy.Int, policy.Float} {
		for _, m := range policy.Methods(r) {
			ops = append(ops, csOp{op: "method:" + r.String() + "." + m.Name, recvs: recvOf[r],
				expr: func(rv string, a []string) string {
					if m.Attr {
						if len(a) > 0 {
							return ""
						}
						return rv + "." + m.Name
					}
					return rv + "." + m.Name + csCall(a)
				}})
		}
	}
	for _, o := range evaluatorOperators(t) {
		kind, sym, _ := strings.Cut(o, ":")
		switch kind {
		case "unary":
			ops = append(ops, csOp{op: o, expr: func(r string, a []string) string {
				if len(a) > 0 {
					return ""
				}
				if sym == "not" {
					return "(not " + r + ")"
				}
				return "(" + sym + r + ")"
			}})
		case "binary", "compare":
			if sym == "notin" {
				sym = "not in"
			}
			ops = append(ops, csOp{op: o, expr: func(r string, a []string) string {
				if len(a) != 1 || strings.Contains(a[0], "=") {
					return ""
				}
				return "(" + r + " " + sym + " " + a[0] + ")"
			}})
		}
	}
	return ops
}

// csCombo is one operation applied to one shape.
type csCombo struct {
	op   *csOp
	recv string
	args []string
	expr string
}

func (c csCombo) shape() string {
	if c.op.noRecv {
		return csCall(c.args)
	}
	if len(c.args) == 0 {
		return c.recv
	}
	return c.recv + " " + csCall(c.args)
}

// csWords are the identifiers of an expression (pool names are
// identifiers; string literals hold only lower-case words none of them
// is).
var csWords = regexp.MustCompile(`[A-Za-z_][A-Za-z0-9_]*`)

// csReads reports whether an expression reads the pool name.
func csReads(expr string, name string) bool {
	return slices.Contains(csWords.FindAllString(expr, -1), name)
}

// csSource is the template of a combination at K repetitions: the
// setups it needs, then a loop that applies the operation and prints the
// length of its result as a string (which forces a lazy result).
func csSource(c csCombo, n, k int) string {
	var sb strings.Builder
	for i := range csReceivers {
		s := &csReceivers[i]
		if s.setup != nil && csReads(c.expr, s.name) {
			sb.WriteString(s.setup(s.size(n)))
		}
	}
	fmt.Fprintf(&sb, "{%% for i in range(%d) %%}{%% set r = %s %%}{{ r|string|length }}{%% endfor %%}", k, c.expr)
	return sb.String()
}

// csData is the data every combination at size n reads.
func csData(n int) map[string]any {
	d := map[string]any{}
	for _, pool := range [][]csShape{csReceivers, csArgs} {
		for i := range pool {
			s := &pool[i]
			if s.data != nil {
				d[s.name] = s.data(s.size(n))
			}
		}
	}
	return d
}

// csDataFor is the data one combination reads (a smaller copy-in).
func csDataFor(c csCombo, all map[string]any) map[string]any {
	d := map[string]any{}
	for k, v := range all {
		if csReads(c.expr, k) {
			d[k] = v
		}
	}
	if _, ok := d["SH"]; !ok && csReads(c.expr, "MK") {
		d["SH"] = all["SH"]
	}
	return d
}

// csDiscover returns every combination that renders at the tiny size:
// the shapes each operation accepts. With pairs, two-argument shapes too.
func csDiscover(t testing.TB, env *Environment, ops []csOp, pairs bool) (combos []csCombo, byOp map[string]int) {
	data := csData(3)
	byOp = map[string]int{}
	try := func(op *csOp, recv string, args []string) {
		e := op.expr(recv, args)
		if e == "" {
			return
		}
		c := csCombo{op: op, recv: recv, args: args, expr: e}
		if _, err := env.RenderString(op.op, csSource(c, 3, 1), csDataFor(c, data), RenderOptions{}); err == nil {
			combos = append(combos, c)
			byOp[op.op]++
		}
	}
	for i := range ops {
		op := &ops[i]
		recvs := op.recvs
		if recvs == nil {
			for _, r := range csReceivers {
				recvs = append(recvs, r.name)
			}
		}
		if op.noRecv {
			recvs = []string{""}
		}
		for _, r := range recvs {
			try(op, r, nil)
			for _, a := range csArgs {
				try(op, r, []string{a.name})
			}
		}
		if !pairs && byOp[op.op] > 0 {
			continue
		}
		// two arguments: always in the full search; in the smoke, for an
		// operation no shape of one argument reaches (replace, maketrans)
		for _, r := range recvs {
			for _, a := range csArgs {
				for _, b := range csArgs2 {
					if !strings.Contains(a.name, "=") {
						try(op, r, []string{a.name, b})
					}
				}
			}
		}
	}
	return combos, byOp
}

// csPoint is one measured size of a combination.
type csPoint struct {
	n        int
	units    int64
	nsUnit   float64
	byteUnit float64
	outUnit  float64
	refused  time.Duration // > 0: the render at K=1 was refused after this long
	err      string
}

// csMeasure renders c at size n with k repetitions: units, time (the
// smaller of wall and process CPU time, as calMeasure), bytes allocated
// and output length; or the refusal.
func csMeasure(env *Environment, c csCombo, n, k int, data map[string]any) (calRun, error) {
	tpl, err := env.Parse(c.op.op, csSource(c, n, k))
	if err != nil {
		return calRun{}, err
	}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	start, cpu0 := time.Now(), cpuTime()
	res, err := tpl.RenderResult(data, RenderOptions{})
	d := time.Since(start)
	if cpu := cpuTime() - cpu0; cpu > 0 && cpu < d {
		d = cpu
	}
	runtime.ReadMemStats(&after)
	return calRun{units: res.Units, d: d, alloc: after.TotalAlloc - before.TotalAlloc, out: len(res.Output)}, err
}

// csGrow measures c at each size (best of runs), stopping at the first
// refusal or failure.
func csGrow(env *Environment, c csCombo, sizes []int, runs int) []csPoint {
	var pts []csPoint
	for _, n := range sizes {
		data := csDataFor(c, csDataCached(n))
		pt := csPoint{n: n}
		r0, err0 := csMeasure(env, c, n, 0, data)
		r1, err1 := csMeasure(env, c, n, 1, data)
		if err0 != nil {
			pt.err = "baseline: " + err0.Error()
			pts = append(pts, pt)
			break
		}
		if err1 != nil {
			// refused (or failed) at one repetition: how long did it
			// take to say so? best of runs
			best := r1.d
			for range runs - 1 {
				r, _ := csMeasure(env, c, n, 1, data)
				best = min(best, r.d)
			}
			pt.refused, pt.err = max(best, 1), err1.Error()
			pts = append(pts, pt)
			break
		}
		per := max(r1.units-r0.units, 1)
		k := int(min(max(calTarget/per, 1), 1<<14))
		bestD, bestD0 := time.Duration(math.MaxInt64), time.Duration(math.MaxInt64)
		bestA, bestA0 := uint64(math.MaxUint64), uint64(math.MaxUint64)
		var rk calRun
		var err error
		for range runs {
			rk, err = csMeasure(env, c, n, k, data)
			if err != nil {
				break
			}
			rz, _ := csMeasure(env, c, n, 0, data)
			bestD, bestD0 = min(bestD, rk.d), min(bestD0, rz.d)
			bestA, bestA0 = min(bestA, rk.alloc), min(bestA0, rz.alloc)
		}
		if err != nil {
			pt.refused, pt.err = max(rk.d, 1), err.Error()
			pts = append(pts, pt)
			break
		}
		pt.units = rk.units - r0.units
		pt.nsUnit = float64(max(bestD-bestD0, 0).Nanoseconds()) / float64(pt.units)
		if bestA > bestA0 {
			pt.byteUnit = float64(bestA-bestA0) / float64(pt.units)
		}
		pt.outUnit = min(float64(rk.out)/float64(pt.units), 1)
		pts = append(pts, pt)
		if rk.d > calSlowRender {
			break
		}
	}
	return pts
}

var csDataMemo = map[int]map[string]any{}

func csDataCached(n int) map[string]any {
	if d, ok := csDataMemo[n]; ok {
		return d
	}
	clear(csDataMemo) // one size at a time: the largest is hundreds of MB
	d := csData(n)
	csDataMemo[n] = d
	return d
}

// csVerdict is a combination's worst point and growth.
type csVerdict struct {
	c                 csCombo
	ns, bytes, heap   float64
	atNs, atB         int
	refused           time.Duration
	refusedAt         int
	growth            float64 // ns a unit at the largest size / at the smallest
	overNs, overBytes bool
	overRefusal       bool
}

func csJudge(c csCombo, pts []csPoint) csVerdict {
	v := csVerdict{c: c, heap: calHeapCeiling, growth: 1}
	var first, last float64
	for _, p := range pts {
		if p.refused > 0 {
			v.refused, v.refusedAt = p.refused, p.n
			continue
		}
		if p.err != "" {
			continue
		}
		if first == 0 && p.nsUnit > 0 {
			first = p.nsUnit
		}
		if p.nsUnit > 0 {
			last = p.nsUnit
		}
		if p.nsUnit > v.ns {
			v.ns, v.atNs = p.nsUnit, p.n
		}
		ceil := calHeapAllowed(p.outUnit)
		if p.byteUnit/ceil > v.bytes/v.heap {
			v.bytes, v.heap, v.atB = p.byteUnit, ceil, p.n
		}
	}
	if first > 0 {
		v.growth = last / first
	}
	v.overNs = v.ns > calWallCeiling
	v.overBytes = v.bytes > v.heap
	v.overRefusal = v.refused > calWall
	return v
}

// TestCostSearchSmoke is the search's smoke, run by go test: every
// searched operation has at least one shape that renders (so the search
// covers the registries and each new builtin is searched), the
// discovery itself never crashes nor errs internally, and a seeded
// sample of shapes grown to 10^4 stays under the bytes-a-unit ceiling.
func TestCostSearchSmoke(t *testing.T) {
	if *costSearchFlag {
		t.Skip("the full search runs instead")
	}
	env := csEnv(t)
	ops := csOps(t)
	combos, byOp := csDiscover(t, env, ops, false)
	for _, op := range ops {
		if byOp[op.op] == 0 {
			t.Errorf("%s: no shape of the search renders (widen csReceivers or csArgs)", op.op)
		}
	}
	// A fixed sample in go test, so make test is reproducible: a random
	// one found a hole in about one run in three (five in sixteen seeds:
	// str.format, wordwrap, striptags, all fixed since), which made CI a
	// draw. JINJABOX_COSTSEARCH_SEED=N reruns sample N, =random draws a
	// new one; make costsearch searches every shape. The holes random
	// samples still find are listed in docs/COSTS.md ("Holes the smoke's
	// random samples found").
	seed := uint64(20261205)
	switch s := os.Getenv("JINJABOX_COSTSEARCH_SEED"); s {
	case "":
	case "random":
		seed = uint64(time.Now().UnixNano())
	default:
		seed, _ = strconv.ParseUint(s, 10, 64)
	}
	t.Logf("%d operations, %d shapes render; sample seed %d (JINJABOX_COSTSEARCH_SEED=%d reruns it)", len(ops), len(combos), seed, seed)
	rng := rand.New(rand.NewPCG(seed, 0x636f7374))
	for range 60 {
		c := combos[rng.IntN(len(combos))]
		pts := csGrow(env, c, []int{1000, 10000}, 1)
		v := csJudge(c, pts)
		for _, p := range pts {
			if strings.Contains(p.err, "internal") {
				t.Errorf("%s %s: n=%d: %s", c.op.op, c.shape(), p.n, p.err)
			}
		}
		if v.overBytes {
			t.Errorf("%s %s: %.3f bytes a unit at n=%d, over its ceiling %.3f: the operation allocates more than it charges",
				c.op.op, c.shape(), v.bytes, v.atB, v.heap)
		}
	}
}

// TestCostSearch is `make costsearch`: the discovery with two-argument
// shapes, and every shape grown from 10^3 to -costsearch.max, failing on
// each operation over a ceiling. Skipped without -costsearch.
func TestCostSearch(t *testing.T) {
	if !*costSearchFlag {
		t.Skip("the full cost search runs with -costsearch (make costsearch)")
	}
	env := csEnv(t)
	ops := csOps(t)
	if *costSearchRun != "" {
		re := regexp.MustCompile(*costSearchRun)
		ops = slices.DeleteFunc(ops, func(o csOp) bool { return !re.MatchString(o.op) })
	}
	combos, byOp := csDiscover(t, env, ops, true)
	if *costSearchShape != "" {
		re := regexp.MustCompile(*costSearchShape)
		combos = slices.DeleteFunc(combos, func(c csCombo) bool { return !re.MatchString(c.shape()) })
	}
	t.Logf("%d operations, %d shapes render", len(ops), len(combos))
	var sizes []int
	for n := 1000; n <= *costSearchMax; n *= 10 {
		sizes = append(sizes, n)
	}
	// combinations sorted by size order: every combination at a size
	// shares one data set (csDataCached)
	worst := map[string][]csVerdict{}
	for i, c := range combos {
		v := csJudge(c, csGrow(env, c, sizes, 1))
		// a point over a ceiling is measured again, keeping each size's
		// better (calRetries): noise only ever adds time
		for retry := 0; retry < calRetries && (v.overNs || v.overRefusal); retry++ {
			v2 := csJudge(c, csGrow(env, c, sizes, 3))
			if v2.ns < v.ns || v2.refused < v.refused {
				v = v2
			}
		}
		worst[c.op.op] = append(worst[c.op.op], v)
		if v.overNs || v.overBytes || v.overRefusal {
			t.Errorf("%s %s: %.3f ns/unit (n=%d), %.3f B/unit (n=%d, ceiling %.3f), refused after %v (n=%d)",
				c.op.op, c.shape(), v.ns, v.atNs, v.bytes, v.atB, v.heap, v.refused, v.refusedAt)
		}
		if i%200 == 0 {
			t.Logf("%d/%d", i, len(combos))
		}
	}
	for _, op := range ops {
		if byOp[op.op] == 0 {
			t.Errorf("%s: no shape renders", op.op)
		}
	}
	if *costSearchTable != "" {
		if err := os.WriteFile(*costSearchTable, []byte(csTable(ops, worst)), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// csTable is docs/COSTS.md's cost-search table: per operation, the
// shapes searched, the slowest shape (ns a unit, where, and its growth),
// the hungriest (bytes a unit against its ceiling) and the slowest
// refusal.
func csTable(ops []csOp, worst map[string][]csVerdict) string {
	var sb strings.Builder
	fmt.Fprintf(&sb, "| operation | shapes | slowest shape | ns/unit (n) | growth | hungriest shape | B/unit (n) / ceiling | slowest refusal (n) |\n")
	fmt.Fprintf(&sb, "| --- | ---: | --- | ---: | ---: | --- | ---: | ---: |\n")
	esc := func(s string) string { return "`" + strings.ReplaceAll(s, "|", "\\|") + "`" }
	for _, op := range ops {
		vs := worst[op.op]
		if len(vs) == 0 {
			continue
		}
		sl, hu, re := vs[0], vs[0], vs[0]
		for _, v := range vs {
			if v.ns > sl.ns {
				sl = v
			}
			if v.bytes/v.heap > hu.bytes/hu.heap {
				hu = v
			}
			if v.refused > re.refused {
				re = v
			}
		}
		mark := func(s string, over bool) string {
			if over {
				return "**" + s + "**"
			}
			return s
		}
		ref := "-"
		if re.refused > 0 {
			ref = mark(fmt.Sprintf("%.1f ms (%d) %s", float64(re.refused.Microseconds())/1000, re.refusedAt, esc(re.c.shape())), re.overRefusal)
		}
		fmt.Fprintf(&sb, "| `%s` | %d | %s | %s | %.2f | %s | %s / %.3f | %s |\n", op.op, len(vs),
			esc(sl.c.shape()), mark(fmt.Sprintf("%.3f (%d)", sl.ns, sl.atNs), sl.overNs), sl.growth,
			esc(hu.c.shape()), mark(fmt.Sprintf("%.3f (%d)", hu.bytes, hu.atB), hu.overBytes), hu.heap, ref)
	}
	return sb.String()
}

// csFoundHoles are the shapes random samples of the smoke found over the
// bytes ceiling (docs/COSTS.md, "Holes the smoke's random samples
// found"): grown in every go test, each to 10^5 (through sizes just past
// powers of two, where growth by doubling wastes the most), whatever the
// seed draws.
var csFoundHoles = []struct {
	op, recv string
	args     []string
}{
	{"filter:pprint", "SS", nil}, // a whitespace run: one word part, its repr made three times
	{"filter:pprint", "SW", nil}, // words: a string header a part, a candidate concatenated a part
	{"filter:pprint", "SL", nil},
	{"filter:pprint", "SX", nil},
	{"filter:pprint", "SH", nil},
	{"filter:join", "LD", []string{"'b'"}}, // the reprs' items kept in lists grown by doubling
	{"filter:join", "LD", []string{"N"}},
	{"filter:join", "TU", nil},
}

// TestCostSearchFoundHoles grows each of csFoundHoles as the smoke grows
// its sample, and holds it to the bytes-a-unit ceiling.
func TestCostSearchFoundHoles(t *testing.T) {
	if testing.Short() {
		t.Skip("grows shapes to 10^5")
	}
	env := csEnv(t)
	ops := csOps(t)
	for _, h := range csFoundHoles {
		i := slices.IndexFunc(ops, func(o csOp) bool { return o.op == h.op })
		if i < 0 {
			t.Fatalf("%s: no such operation", h.op)
		}
		c := csCombo{op: &ops[i], recv: h.recv, args: h.args, expr: ops[i].expr(h.recv, h.args)}
		v := csJudge(c, csGrow(env, c, []int{1000, 4097, 8193, 10000, 16385, 100000}, 1))
		if v.overBytes {
			t.Errorf("%s %s: %.3f bytes a unit at n=%d, over its ceiling %.3f", h.op, c.shape(), v.bytes, v.atB, v.heap)
		}
	}
}
