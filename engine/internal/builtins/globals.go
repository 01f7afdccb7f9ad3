package builtins

import (
	"strconv"
	"strings"

	"github.com/jinjabox/jinjabox/budget"
	"github.com/jinjabox/jinjabox/engine/internal/errs"
	"github.com/jinjabox/jinjabox/engine/internal/vmem"
	"github.com/jinjabox/jinjabox/engine/value"
)

// Jinja2's default globals: range, lipsum, dict, cycler, joiner, namespace.
// Each call charges budget.Call, then what it builds.

// MaxRange is Jinja's sandbox MAX_RANGE: a longer range is a render error
// (rule P7), not a budget one.
const MaxRange = 100000

// globalFunc adapts a Go function to value.CallableImpl.
type globalFunc struct {
	name string
	fn   func(c value.Ctx, args *value.Args) value.Value
}

func (g *globalFunc) CallName() string { return g.name }

func (g *globalFunc) Call(c value.Ctx, args *value.Args) value.Value {
	c.Charge(budget.Call, g.name+"()")
	return g.fn(c, args)
}

// rangeGlobal is the range global: IsRange tells it from any other callable.
var rangeGlobal = &globalFunc{"range", globalRange}

// IsRange reports whether c is the range global.
func IsRange(c value.CallableImpl) bool { return c == value.CallableImpl(rangeGlobal) }

// LazyRanger is a Ctx that can take a range's numbers without its items:
// a for loop iterating a call of range itself (engine's loop) draws each
// number as it goes, so the call is charged its items, exactly as always,
// and allocates none of them. TakeLazyRange is true once, for the call the
// loop asked it for, and clears itself.
type LazyRanger interface {
	TakeLazyRange() bool
}

func init() {
	for _, g := range []*globalFunc{
		rangeGlobal,
		{"lipsum", globalLipsum},
		{"dict", globalDict},
		{"cycler", globalCycler},
		{"joiner", globalJoiner},
		{"namespace", globalNamespace},
	} {
		GlobalFuncs[g.name] = g
	}
}

func globalRange(c value.Ctx, args *value.Args) value.Value {
	lr, _ := c.(LazyRanger)
	lazy := lr != nil && lr.TakeLazyRange() // first: no error below leaves it set
	if args != nil && len(args.Kw) > 0 {
		typeError("range() takes no keyword arguments")
	}
	n := 0
	if args != nil {
		n = len(args.Pos)
	}
	if n == 0 {
		typeError("range expected at least 1 argument, got 0")
	}
	if n > 3 {
		typeError("range expected at most 3 arguments, got " + strconv.Itoa(n))
	}
	var start, stop, step int64 = 0, 0, 1
	switch n {
	case 1:
		stop = intArg(args.Pos[0])
	default:
		start, stop = intArg(args.Pos[0]), intArg(args.Pos[1])
		if n == 3 {
			step = intArg(args.Pos[2])
		}
	}
	if step == 0 {
		valueError("range() arg 3 must not be zero")
	}
	l := value.RangeLen(start, stop, step)
	if l > MaxRange {
		pyErr(errs.Render, "OverflowError", "Range too big. The sandbox blocks ranges larger than MAX_RANGE (100000).")
	}
	chargeElems(c, int(l), "range()")
	if lazy {
		return value.NewLazyRange(start, stop, step)
	}
	return value.NewRange(start, stop, step, value.RangeItems(start, stop, step, 0))
}

// lipsumWords is jinja2.constants.LOREM_IPSUM_WORDS.
var lipsumWords = strings.Fields(`a ac accumsan ad adipiscing aenean aliquam aliquet amet ante aptent arcu at
auctor augue bibendum blandit class commodo condimentum congue consectetuer
consequat conubia convallis cras cubilia cum curabitur curae cursus dapibus
diam dictum dictumst dignissim dis dolor donec dui duis egestas eget eleifend
elementum elit enim erat eros est et etiam eu euismod facilisi facilisis fames
faucibus felis fermentum feugiat fringilla fusce gravida habitant habitasse hac
hendrerit hymenaeos iaculis id imperdiet in inceptos integer interdum ipsum
justo lacinia lacus laoreet lectus leo libero ligula litora lobortis lorem
luctus maecenas magna magnis malesuada massa mattis mauris metus mi molestie
mollis montes morbi mus nam nascetur natoque nec neque netus nibh nisi nisl non
nonummy nostra nulla nullam nunc odio orci ornare parturient pede pellentesque
penatibus per pharetra phasellus placerat platea porta porttitor posuere
potenti praesent pretium primis proin pulvinar purus quam quis quisque rhoncus
ridiculus risus rutrum sagittis sapien scelerisque sed sem semper senectus sit
sociis sociosqu sodales sollicitudin suscipit suspendisse taciti tellus tempor
tempus tincidunt torquent tortor tristique turpis ullamcorper ultrices
ultricies urna ut varius vehicula vel velit venenatis vestibulum vitae vivamus
viverra volutpat vulputate`)

// randrange is Python's random.randrange(a, b) driven by the render's
// deterministic generator.
func randrange(c value.Ctx, a, b int64) int64 {
	if b <= a {
		valueError("empty range for randrange() (" + strconv.FormatInt(a, 10) + ", " + strconv.FormatInt(b, 10) + ", " + strconv.FormatInt(b-a, 10) + ")")
	}
	return a + int64(c.Rand()%uint64(b-a))
}

// lipsumUnit is the estimate per paragraph and per word: the bytes
// (a word is at most 14 with its punctuation and space) and the step.
const lipsumUnit = budget.Elem + 16

func globalLipsum(c value.Ctx, args *value.Args) value.Value {
	var a [4]value.Value
	args.Bind("generate_lorem_ipsum", []string{"n", "html", "min", "max"}, a[:])
	n, html, lo, hi := int64(5), true, int64(20), int64(100)
	if !a[0].IsMissing() {
		n = intArg(a[0])
	}
	if !a[1].IsMissing() {
		html = a[1].Truth()
	}
	if !a[2].IsMissing() {
		lo = intArg(a[2])
	}
	if !a[3].IsMissing() {
		hi = intArg(a[3])
	}
	// Estimate first: n paragraphs of at most max-1 words.
	words := max(hi-1, 0)
	c.Charge(budget.Mul(max(n, 0), budget.Add(lipsumUnit, budget.Mul(words, lipsumUnit))), "lipsum()")
	paras := make([]string, 0, max(n, 0))
	for k := int64(0); k < n; k++ {
		nextCap := true
		lastComma, lastStop := int64(0), int64(0)
		last := ""
		var p []string
		count := randrange(c, lo, hi)
		for idx := int64(0); idx < count; idx++ {
			var word string
			for {
				word = lipsumWords[c.Rand()%uint64(len(lipsumWords))]
				if word != last {
					last = word
					break
				}
			}
			if nextCap {
				word = PyCapitalize(word)
				nextCap = false
			}
			if idx-randrange(c, 3, 8) > lastComma {
				lastComma = idx
				lastStop += 2
				word += ","
			}
			if idx-randrange(c, 10, 20) > lastStop {
				lastComma, lastStop = idx, idx
				word += "."
				nextCap = true
			}
			p = append(vmem.Grown(p), word)
		}
		ps := strings.Join(p, " ")
		if strings.HasSuffix(ps, ",") {
			ps = ps[:len(ps)-1] + "."
		} else if !strings.HasSuffix(ps, ".") {
			ps += "."
		}
		paras = append(vmem.Grown(paras), ps)
	}
	if !html {
		return value.FromString(strings.Join(paras, "\n\n"))
	}
	for i, p := range paras {
		paras[i] = "<p>" + value.EscapeHTML(p) + "</p>"
	}
	return value.Safe(strings.Join(paras, "\n"))
}

// dictUpdate adds the entries of a dict (charged by the caller), or of an
// iterable of pairs.
func dictUpdate(c value.Ctx, d *value.DictData, src value.Value) {
	if src.Kind() == value.Dict {
		d.Update(src.DictData())
		return
	}
	if src.IsString() {
		valueError("dictionary update sequence element #0 has length 1; 2 is required")
	}
	for i, it := range value.Iterate(c, src) {
		c.Charge(vmem.DictInsertUnits, "dict()")
		var kv []value.Value
		switch {
		case it.IsSeq():
			kv = it.Items()
		case it.IsString():
			kv = value.Iterate(c, it)
		default:
			typeError("cannot convert dictionary update sequence element #" + strconv.Itoa(i) + " to a sequence")
		}
		if len(kv) != 2 {
			valueError("dictionary update sequence element #" + strconv.Itoa(i) + " has length " + strconv.Itoa(len(kv)) + "; 2 is required")
		}
		value.ChargeKey(c, kv[0], "dict()")
		d.Set(kv[0], kv[1])
	}
}

// dictArgs is dict(*args, **kwargs), for dict() and namespace() (op
// names the keywords' charge): at most one mapping or iterable of pairs,
// then the keywords. A mapping's entries and the keywords are charged
// before the dict is made at their number.
func dictArgs(c value.Ctx, args *value.Args, op string) *value.DictData {
	if args == nil {
		return value.NewDict(0)
	}
	if len(args.Pos) > 1 {
		typeError("dict expected at most 1 argument, got " + strconv.Itoa(len(args.Pos)))
	}
	n := len(args.Kw)
	if len(args.Pos) == 1 && args.Pos[0].Kind() == value.Dict {
		m := args.Pos[0].DictData().Len()
		c.Charge(budget.Mul(int64(m), vmem.DictEntryBytes), "dict()")
		n += m
	}
	// a keyword's entry is charged an element and a slot beyond its
	// argument's slot, not its 120 bytes: that would put 150 calls of
	// 10,000 keywords (a benign look-alike of the redteam corpus) over
	// the default budget; with the arguments' stack reused it allocates
	// 1.4 bytes a unit
	chargeElems(c, len(args.Kw), op)
	if len(args.Pos) == 0 && args.Keys != nil {
		return value.DictFromKw(args.Keys, args.Kw) // the names indexed once, not hashed again
	}
	d := value.NewDict(n)
	if len(args.Pos) == 1 {
		dictUpdate(c, d, args.Pos[0])
	}
	for _, kv := range args.Kw {
		d.SetStr(kv.Key, kv.Val)
	}
	return d
}

func globalDict(c value.Ctx, args *value.Args) value.Value {
	return value.FromDict(dictArgs(c, args, "dict()"))
}

func globalNamespace(c value.Ctx, args *value.Args) value.Value {
	d := dictArgs(c, args, "namespace()")
	// Rule P10: a namespace holds data only, in its keys too.
	value.CheckData(c, value.FromDict(d), "namespace attribute")
	return value.FromObject(&value.Namespace{D: d})
}

// Cycler is the object cycler(*items) returns.
type Cycler struct {
	items []value.Value
	pos   int
}

// TypeName implements value.ObjectImpl.
func (cy *Cycler) TypeName() string { return "Cycler" }

// Held implements value.Holder: the items, any of which current and
// next() give back.
func (cy *Cycler) Held() []value.Value { return cy.items }

// Attr implements value.ObjectImpl: next(), reset(), current, items, pos.
func (cy *Cycler) Attr(c value.Ctx, name string) (value.Value, bool) {
	switch name {
	case "current":
		return cy.items[cy.pos], true
	case "items":
		return value.NewTuple(cy.items), true
	case "pos":
		return value.FromInt(int64(cy.pos)), true
	case "next":
		return value.FromCallable(&globalFunc{"next", func(c value.Ctx, args *value.Args) value.Value {
			posArgs("next", args, 0, 0)
			v := cy.items[cy.pos]
			cy.pos = (cy.pos + 1) % len(cy.items)
			return v
		}}), true
	case "reset":
		return value.FromCallable(&globalFunc{"reset", func(c value.Ctx, args *value.Args) value.Value {
			posArgs("reset", args, 0, 0)
			cy.pos = 0
			return value.NoneValue
		}}), true
	}
	return value.Value{}, false
}

func globalCycler(c value.Ctx, args *value.Args) value.Value {
	if args != nil && len(args.Kw) > 0 {
		typeError("Cycler.__init__() got an unexpected keyword argument " + errs.Quote(args.Kw[0].Key))
	}
	if args == nil || len(args.Pos) == 0 {
		pyErr(errs.Render, "RuntimeError", "at least one item has to be provided")
	}
	chargeElems(c, len(args.Pos), "cycler()")
	return value.FromObject(&Cycler{items: vmem.Append([]value.Value(nil), args.Pos...)})
}

// joiner is the callable joiner(sep) returns: "" the first time, then sep.
type joiner struct {
	sep  value.Value
	used bool
}

func (j *joiner) CallName() string { return "joiner" }

func (j *joiner) Call(c value.Ctx, args *value.Args) value.Value {
	c.Charge(budget.Call, "joiner()")
	posArgs("joiner", args, 0, 0)
	if !j.used {
		j.used = true
		return value.EmptyString
	}
	return j.sep
}

func globalJoiner(c value.Ctx, args *value.Args) value.Value {
	var a [1]value.Value
	args.Bind("Joiner.__init__", []string{"sep"}, a[:])
	sep := value.FromString(", ")
	if !a[0].IsMissing() {
		sep = a[0]
	}
	return value.FromCallable(&joiner{sep: sep})
}
