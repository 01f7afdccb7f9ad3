package builtins

import (
	"slices"

	"github.com/jinjabox/jinjabox/budget"
	"github.com/jinjabox/jinjabox/engine/internal/errs"
	"github.com/jinjabox/jinjabox/engine/internal/strutil"
	"github.com/jinjabox/jinjabox/engine/internal/vmem"
	"github.com/jinjabox/jinjabox/engine/internal/vops"
	"github.com/jinjabox/jinjabox/engine/value"
)

// Ordering filters: sort, dictsort, unique, min, max, groupby. Every
// comparison is charged as it is made (n log n of them for a sort).

func init() {
	regFilter(fSort, "sort")
	regFilter(fDictsort, "dictsort")
	regFilter(fUnique, "unique")
	regFilter(fMin, "min")
	regFilter(fMax, "max")
	regFilter(fGroupby, "groupby")
}

// pyLessFrom is Python's a < b, spending from m, c.Spender(), where it
// can (strutil.Spent): a sort's comparisons, n log n of them.
func pyLessFrom(c value.Ctx, m *budget.Meter, a, b value.Value) bool {
	if !strutil.Spent(m, budget.Elem) {
		c.Charge(budget.Elem, "comparison")
	}
	return value.CompareFrom(c, m, a, b, "<") == -1
}

// lessKeys is Python's list < list for sort keys, spending from m as
// pyLessFrom.
func lessKeys(c value.Ctx, m *budget.Meter, a, b []value.Value) bool {
	for i := 0; i < len(a) && i < len(b); i++ {
		if !strutil.Spent(m, budget.Elem) {
			c.Charge(budget.Elem, "comparison")
		}
		if a[i].Kind() == value.String && b[i].Kind() == value.String {
			// EqualFrom then CompareFrom of two strings, their charges
			// as they make them, without two copies of each key into
			// two type switches (a sort by attribute's comparisons)
			x, y := a[i].Str(), b[i].Str()
			if len(x) == len(y) {
				if n := int64(len(x)); !strutil.Spent(m, n) {
					c.Charge(n, "string comparison")
				}
				if x == y {
					continue
				}
			}
			if n := int64(min(len(x), len(y))); !strutil.Spent(m, n) {
				c.Charge(n, "string comparison")
			}
			return x < y
		}
		if a[i].Kind() == value.Int && b[i].Kind() == value.Int {
			// two integers compare with no charge of their own
			if x, y := a[i].Int(), b[i].Int(); x != y {
				return x < y
			}
			continue
		}
		if !value.EqualFrom(c, m, a[i], b[i]) {
			return value.CompareFrom(c, m, a[i], b[i], "<") == -1
		}
	}
	return len(a) < len(b)
}

// keyed is an item's sort key and the item's index in the input (an
// index, not the item: 32 bytes an item, and the merge copies them).
type keyed struct {
	key []value.Value
	i   int
}

// keyedBytes is a keyed's size.
const keyedBytes = 32

// sortKeyed is Python's stable sorted(); reverse keeps equal items in
// their original order, as Python's does. Keys of one value compare
// directly (key < key, so undefined keys fail as in Jinja's groupby and
// dictsort); longer keys, and every key when listKey is set (sort's
// getter returns a list even for one attribute), compare as Python lists
// do (== first, then <), which is what sort's multi-attribute getter
// builds.
func sortKeyed(c value.Ctx, ks []keyed, reverse, listKey bool) {
	lt := lessKeys
	if len(ks) > 0 && len(ks[0].key) == 1 && !listKey {
		lt = func(c value.Ctx, m *budget.Meter, a, b []value.Value) bool { return pyLessFrom(c, m, a[0], b[0]) }
	}
	m := c.Spender()
	less := func(x, y *keyed) bool { return lt(c, m, x.key, y.key) }
	// sorted(reverse=True) reverses the list, sorts it and reverses it
	// again (listobject.c: list_sort_impl), so the comparisons are a
	// plain sort's, in the order Python makes them: which one fails
	// first (an undefined, a dict against a dict) decides the error
	if reverse {
		slices.Reverse(ks)
	}
	if len(ks) < pyMinMerge {
		pyShortSort(ks, less)
	} else {
		naturalMergeSort(ks, less)
	}
	if reverse {
		slices.Reverse(ks)
	}
}

// pyMinMerge is CPython's MIN_MERGE: a list shorter than it is sorted by
// one count_run and a binary insertion sort of the rest, so its
// comparisons come in CPython's order exactly. A longer list is merged
// (naturalMergeSort): the same result, the comparisons in another order
// (docs/COMPATIBILITY.md).
const pyMinMerge = 64

// pyShortSort is CPython's list.sort of fewer than pyMinMerge items
// (listobject.c, 3.11): count_run finds the leading run (reversed when
// strictly descending), binarysort inserts the rest one by one, each
// placed by a binary search of the sorted prefix. Stable. The moves are
// at most pyMinMerge squared records, a constant.
func pyShortSort(ks []keyed, less func(x, y *keyed) bool) {
	n := len(ks)
	if n < 2 {
		return
	}
	run := 2
	if less(&ks[1], &ks[0]) {
		for run < n && less(&ks[run], &ks[run-1]) {
			run++
		}
		slices.Reverse(ks[:run])
	} else {
		for run < n && !less(&ks[run], &ks[run-1]) {
			run++
		}
	}
	for start := run; start < n; start++ {
		pivot := ks[start]
		l, r := 0, start
		for l < r {
			p := l + (r-l)>>1
			if less(&pivot, &ks[p]) {
				r = p
			} else {
				l = p + 1
			}
		}
		//scratch:ok pyShortSort sorts fewer than pyMinMerge records: a few items move
		copy(ks[l+1:start+1], ks[l:start])
		ks[l] = pivot
	}
}

// naturalMergeSort is a stable merge sort over the input's existing runs
// (strictly descending runs are reversed first, which keeps it stable).
// Like Python's Timsort it needs n-1 comparisons on sorted or reversed
// input and about n*log2(n) otherwise: every comparison is charged, so
// the count matters.
func naturalMergeSort(ks []keyed, less func(x, y *keyed) bool) {
	n := len(ks)
	if n < 2 {
		return
	}
	var runs []int
	for i := 0; i < n; {
		j := i + 1
		if j < n && less(&ks[j], &ks[j-1]) {
			for j+1 < n && less(&ks[j+1], &ks[j]) {
				j++
			}
			j++
			slices.Reverse(ks[i:j])
		} else {
			for j < n && !less(&ks[j], &ks[j-1]) {
				j++
			}
		}
		//scratch:ok sort scratch: one record an item, charged by its callers (keyedBytes an item) and the merges by their comparisons
		runs = append(runs, i)
		i = j
	}
	runs = append(runs, n)
	var buf []keyed // made only when there is a merge (not for sorted input)
	for len(runs) > 2 {
		if buf == nil {
			//scratch:ok sort scratch: one record an item, charged by its callers (keyedBytes an item) and the merges by their comparisons
			buf = vmem.Fresh(make([]keyed, n))
		}
		next := runs[:0:0]
		k := len(runs) - 1 // number of runs
		for r := 0; r < k; r += 2 {
			if r+1 < k {
				lo, mid, hi := runs[r], runs[r+1], runs[r+2]
				mergeRuns(ks[lo:mid], ks[mid:hi], buf[lo:hi], less)
				vmem.Copy(ks[lo:hi], buf[lo:hi])
			}
			//scratch:ok sort scratch: one record an item, charged by its callers (keyedBytes an item) and the merges by their comparisons
			next = append(next, runs[r])
		}
		//scratch:ok sort scratch: one record an item, charged by its callers (keyedBytes an item) and the merges by their comparisons
		runs = append(next, n)
	}
}

// mergeRuns merges two sorted runs into out, left first on ties.
func mergeRuns(a, b, out []keyed, less func(x, y *keyed) bool) {
	i, j, o := 0, 0, 0
	for i < len(a) && j < len(b) {
		if less(&b[j], &a[i]) {
			out[o] = b[j]
			j++
		} else {
			out[o] = a[i]
			i++
		}
		o++
	}
	o += vmem.Copy(out[o:], a[i:])
	vmem.Copy(out[o:], b[j:])
}

func fold(c value.Ctx, v value.Value, caseSensitive bool) value.Value {
	if caseSensitive {
		return v
	}
	return ignoreCase(c, v)
}

func fSort(c value.Ctx, v value.Value, args *value.Args) value.Value {
	a := bind(args, "do_sort", "reverse", "case_sensitive", "attribute")
	reverse, cs := argBool(a[0], false), argBool(a[1], false)
	paths := parseMultiAttr(c, a[2])
	items := draw(c, v, "filter sort")
	if len(items) == 0 {
		refuseUnresolved(paths...)
	}
	c.Charge(budget.Mul(int64(len(items)), budget.Elem), "filter sort")
	ks := vmem.Fresh(make([]keyed, len(items)))
	backing := vmem.Fresh(make([]value.Value, len(items)*len(paths))) // one allocation for every key
	for i, it := range items {
		key := backing[i*len(paths) : (i+1)*len(paths) : (i+1)*len(paths)]
		for j, p := range paths {
			key[j] = fold(c, p.get(c, it, nil), cs)
		}
		ks[i] = keyed{key, i}
	}
	sortKeyed(c, ks, reverse, true)
	out := vmem.Fresh(make([]value.Value, len(ks)))
	for i, k := range ks {
		out[i] = items[k.i]
	}
	return value.NewList(out)
}

func fDictsort(c value.Ctx, v value.Value, args *value.Args) value.Value {
	a := bind(args, "do_dictsort", "case_sensitive", "by", "reverse")
	cs, reverse := argBool(a[0], false), argBool(a[2], false)
	pos := 0
	if !a[1].IsMissing() {
		switch {
		case a[1].IsString() && a[1].Str() == "key":
		case a[1].IsString() && a[1].Str() == "value":
			pos = 1
		default:
			errs.Throw(errs.Render, `You can only sort by either "key" or "value"`)
		}
	}
	if v.IsUndefined() {
		vops.ThrowUndefined(v)
	}
	if v.Kind() != value.Dict {
		errs.Throwf(errs.Render, "%s object has no attribute 'items'", errs.Quote(v.TypeName()))
	}
	d := v.DictData()
	// what it allocates: the pairs, a key and its keyed record each (a
	// merge's buffer of records is charged by the comparisons it needs)
	c.Charge(budget.Mul(int64(d.Len()), vmem.PairBytes+vmem.ValueBytes+keyedBytes), "filter dictsort")
	pairs := value.ItemPairs(d)
	ks := vmem.Fresh(make([]keyed, len(pairs)))
	keys := vmem.Fresh(make([]value.Value, len(pairs))) // one allocation for every key
	for i, p := range pairs {
		keys[i] = fold(c, p.Items()[pos], cs)
		ks[i] = keyed{keys[i : i+1 : i+1], i}
	}
	sortKeyed(c, ks, reverse, false)
	// the keys are not read again: their array takes the sorted pairs
	out := keys
	for i, k := range ks {
		out[i] = pairs[k.i]
	}
	return value.NewList(out)
}

// fUnique is do_unique: a generator of first occurrences by key.
func fUnique(c value.Ctx, v value.Value, args *value.Args) value.Value {
	a := bind(args, "do_unique", "case_sensitive", "attribute")
	return newGen("do_unique", func(c value.Ctx) puller {
		cs := argBool(a[0], false)
		path := parseAttrPath(c, a[1])
		src := source(c, v, "filter unique")
		var seen value.KeySet // the keys drawn, as Python's set
		drawn := false
		return func(c value.Ctx) (value.Value, bool) {
			for {
				it, ok := src(c)
				if !ok {
					if !drawn {
						refuseUnresolved(path)
					}
					return it, false
				}
				drawn = true
				key := fold(c, path.get(c, it, nil), cs)
				value.ChargeKey(c, key, "filter unique")
				if seen.Add(c, key, "filter unique") {
					return it, true
				}
			}
		}
	})
}

// minMax is _min_or_max: the first extreme item by key (want -1 for min,
// 1 for max; a NaN comparison never replaces).
func minMax(c value.Ctx, v value.Value, args *value.Args, fn string, want int) value.Value {
	a := bind(args, fn, "case_sensitive", "attribute")
	cs := argBool(a[0], false)
	path := parseAttrPath(c, a[1])
	items := draw(c, v, "filter "+fn)
	if len(items) == 0 {
		refuseUnresolved(path)
		return emptyUndef("No aggregated item, sequence was empty.")
	}
	op := "<"
	if want > 0 {
		op = ">"
	}
	best := items[0]
	bestKey := fold(c, path.get(c, best, nil), cs)
	for _, it := range items[1:] {
		k := fold(c, path.get(c, it, nil), cs)
		c.Charge(budget.Elem, "filter "+fn)
		if value.Compare(c, k, bestKey, op) == want {
			best, bestKey = it, k
		}
	}
	return best
}

func fMin(c value.Ctx, v value.Value, args *value.Args) value.Value {
	return minMax(c, v, args, "do_min", -1)
}

func fMax(c value.Ctx, v value.Value, args *value.Args) value.Value {
	return minMax(c, v, args, "do_max", 1)
}

// fGroupby is do_groupby: sort by the grouper, then group runs of equal
// keys into (grouper, list) named tuples. Without case sensitivity the
// grouper shown is the first item's own value.
func fGroupby(c value.Ctx, v value.Value, args *value.Args) value.Value {
	a := bind(args, "do_groupby", "attribute", "default", "case_sensitive")
	if a[0].IsMissing() {
		errs.Throw(errs.Type, "do_groupby() missing 1 required positional argument: 'attribute'")
	}
	path := parseAttrPath(c, a[0])
	var dflt *value.Value
	if !isNoneOrMissing(a[1]) {
		dflt = &a[1]
	}
	cs := argBool(a[2], false)
	items := draw(c, v, "filter groupby")
	if len(items) == 0 {
		refuseUnresolved(path)
	}
	//scratch:ok one record an item drawn by draw, which charged the items (keyedBytes included in its charge)
	ks := vmem.Fresh(make([]keyed, len(items)))
	for i, it := range items {
		ks[i] = keyed{key: []value.Value{fold(c, path.get(c, it, dflt), cs)}, i: i}
	}
	sortKeyed(c, ks, false, false)
	out := []value.Value{}
	names := []string{"grouper", "list"}
	for i := 0; i < len(ks); {
		j := i + 1
		for j < len(ks) {
			c.Charge(budget.Elem, "filter groupby")
			if !value.Equal(c, ks[j].key[0], ks[i].key[0]) {
				break
			}
			j++
		}
		group := vmem.Fresh(make([]value.Value, j-i))
		for k := i; k < j; k++ {
			group[k-i] = items[ks[k].i]
		}
		grouper := ks[i].key[0]
		if !cs {
			grouper = path.get(c, group[0], dflt)
		}
		out = append(vmem.Grown(out), value.NewNamedTuple(names, []value.Value{grouper, value.NewList(group)}))
		i = j
	}
	return value.NewList(out)
}
