package value

import (
	"hash/maphash"
	"math"
	"math/bits"
	"sync/atomic"

	"github.com/jinjabox/jinjabox/budget"
	"github.com/jinjabox/jinjabox/engine/internal/errs"
)

// Keys hash with Python's equality: values that compare equal hash alike
// (1, 1.0 and True; -0.0 and 0), so a dict, a set of seen keys (unique)
// and a membership test find them in one probe whatever their kind.

// hashSeed is per process: a template cannot predict where its keys land,
// so it cannot build colliding keys to make lookups linear. Output and
// units never depend on it (entries keep insertion order; probes are not
// charged).
var hashSeed = maphash.MakeSeed()

// Fixed tags keep values of different kinds that never compare equal
// apart; numbers share the int tag.
const (
	tagInt uint64 = iota + 1
	tagFloat
	tagStr
	tagNone
	tagUndef
	tagTuple
	tagIdent
	tagRange
)

// hashKey0..3 are per-process secrets drawn from hashSeed for mix.
var hashKey0, hashKey1, hashKey2, hashKey3 = maphash.String(hashSeed, "k0"), maphash.String(hashSeed, "k1"),
	maphash.String(hashSeed, "k2"), maphash.String(hashSeed, "k3")

// mix hashes a tagged word: two rounds of the 64x64->128 multiply-fold
// keyed by the process's secrets (wyhash's mixing, which Go's runtime
// hashes a word with where it has no AES). A call of maphash.Bytes on
// the 16 bytes took 15 ns, most of an int-keyed insert.
func mix(tag, x uint64) uint64 {
	hi, lo := bits.Mul64(x^hashKey0, tag^hashKey1)
	hi, lo = bits.Mul64(hi^hashKey2, lo^hashKey3)
	return hi ^ lo
}

// The tuple memo (ListData.hmemo): 0 not yet computed, memoUnhashable,
// or the hash with memoHashable in its low bits. One word, read and
// written atomically: a value copied in once may be shared by renders.
const (
	memoUnhashable uint64 = 1
	memoHashable   uint64 = 3
)

// keyHash returns the hash of a hashable key; ok is false for an
// unhashable one (a list, a dict, a tuple holding one). A tuple's answer
// is memoized on its ListData: a tuple never changes, so a DAG of shared
// tuples is walked once per distinct tuple, never once per path (a
// 60-level DAG has 2^60 paths), and a tuple nested 90,000 deep is hashed
// in linear time however often it is used as a key.
func keyHash(v Value) (h uint64, ok bool) {
	switch v.k {
	case Bool, Int:
		return mix(tagInt, uint64(v.n)), true
	case Float:
		f := v.Float()
		if i, exact := floatInt(f); exact {
			return mix(tagInt, uint64(i)), true
		}
		return mix(tagFloat, uint64(v.n)), true
	case String:
		return maphash.String(hashSeed, v.Str()) ^ tagStr, true
	case None:
		return mix(tagNone, 0), true
	case Undefined:
		return mix(tagUndef, 0), true
	case Tuple:
		return tupleHash(v.ref.(*ListData))
	case List:
		// a range is hashable, by its items (equal ranges hash equal:
		// range(0) == range(2, 2)); a dict_values by identity, as it
		// compares (object.__hash__); lists and the set-like views are
		// not (their __eq__ leaves __hash__ None)
		switch ld := v.ref.(*ListData); ld.View() {
		case "range":
			h, ok := tupleHash(ld)
			return h ^ tagRange, ok
		case "dict_values":
			return identityHash(v.ref), true
		}
	case Callable, Object:
		return identityHash(v.ref), true
	}
	return 0, false
}

func tupleHash(ld *ListData) (uint64, bool) {
	if h, ok, done := tupleMemo(ld); done {
		return h, ok
	}
	// The tuples inside not hashed yet are hashed innermost first, from
	// a stack of their own, each once: hashed by recursion, a tuple
	// nested 90,000 deep (redteam/cpu/unique-deep-tuple) grew the
	// goroutine's stack by copying to tens of megabytes (60 MiB of peak
	// RSS, 300 ms of CPU a process faulting it in). A frame is a tuple
	// and how far its items are looked at.
	type frame struct {
		ld *ListData
		i  int
	}
	//scratch:ok a frame a nested tuple that exists (56 bytes of header or more), hashed once; callers charge the key's size first
	stack := []frame{{ld: ld}}
	for len(stack) > 0 {
		f := &stack[len(stack)-1]
		for f.i < len(f.ld.Items) {
			it := f.ld.Items[f.i]
			if it.k != Tuple {
				f.i++
				continue
			}
			in := it.ref.(*ListData)
			if _, _, done := tupleMemo(in); done {
				f.i++
				continue
			}
			break
		}
		if f.i < len(f.ld.Items) {
			//scratch:ok a frame a nested tuple that exists, as above
			stack = append(stack, frame{ld: f.ld.Items[f.i].ref.(*ListData)})
			continue
		}
		tupleHashItems(f.ld) // its tuples are memoized: one level
		stack = stack[:len(stack)-1]
	}
	h, ok, _ := tupleMemo(ld)
	return h, ok
}

// tupleMemo is a tuple's memoized hash, done false when it is not known
// yet.
func tupleMemo(ld *ListData) (h uint64, ok, done bool) {
	switch m := atomic.LoadUint64(&ld.hmemo); {
	case m == memoUnhashable:
		return 0, false, true
	case m&memoHashable == memoHashable:
		return m &^ memoHashable, true, true
	}
	return 0, false, false
}

// tupleHashItems hashes a tuple from its items' hashes and memoizes it
// (its tuples are hashed already, or this recurses).
func tupleHashItems(ld *ListData) (uint64, bool) {
	h := mix(tagTuple, uint64(len(ld.Items)))
	for _, it := range ld.Items {
		ih, ok := keyHash(it)
		if !ok {
			atomic.StoreUint64(&ld.hmemo, memoUnhashable)
			return 0, false
		}
		h = mix(h, ih)
	}
	h &^= memoHashable
	atomic.StoreUint64(&ld.hmemo, h|memoHashable)
	return h, true
}

// identityHash hashes a callable or object by identity, as Python hashes
// functions and plain objects: every implementation is a pointer, hashed
// by its address (Go's collector does not move objects).
func identityHash(ref any) uint64 {
	return maphash.Comparable(hashSeed, ref) ^ tagIdent
}

// hashable reports whether v can be a dict key (Python's hashable plain
// values: None, bool, numbers, strings, tuples of hashables, callables and
// objects). It is memoized per tuple and costs no budget: the callers
// charge the key's size (ChargeKey) before they hash it.
func hashable(v Value) bool {
	_, ok := keyHash(v)
	return ok
}

// ChargeKey refuses an unhashable key k with Python's type error, then
// charges hashing it. The refusal comes first, as in Python, where the
// hash of a tuple stops at its first unhashable item: the check is
// memoized per tuple, so it walks each distinct tuple once (bounded by the
// memory the value holds, never by its paths). The charge comes before
// any hash is used: a string costs its bytes, a tuple its size plus an
// element per item (Python hashes every leaf each time, so a tuple shared
// down a DAG counts once per path and a 2^60-leaf DAG is refused here; the
// memo only spares the Go work), anything else nothing beyond the caller's
// step.
func ChargeKey(c Ctx, k Value, op string) {
	switch k.k {
	case String:
		// always hashable: no hash computed here, only in the insert
		c.Charge(int64(k.byteLen()), op)
		return
	case Tuple, List:
		// a tuple of hashables, a range or a dict_values (a list never is)
		if hashable(k) {
			c.Charge(budget.Add(Size(k, c.Meter().Left()), budget.Mul(int64(len(k.Items())), budget.Elem)), op)
			return
		}
	case Dict:
	default:
		return // the scalars, callables and objects hash
	}
	errs.Throwf(errs.Type, "unhashable type: %s", errs.Quote(unhashableType(k)))
}

// unhashableType names what Python's hash() stops at: the first
// unhashable item, depth first (a tuple holding a list: 'list').
func unhashableType(k Value) string {
	for k.k == Tuple {
		next := k
		for _, it := range k.Items() {
			if !hashable(it) {
				next = it
				break
			}
		}
		if next.ref == k.ref {
			break
		}
		k = next
	}
	return k.TypeName()
}

// keyEqual is Python's == on two keys that hashed alike. Tuples compare
// item by item, the same tuple (or one whose memoized hash differs)
// without a walk; numbers compare exactly.
func keyEqual(a, b Value) bool {
	switch a.k {
	case Bool, Int, Float:
		if a.k == Float && b.k == Float && a.n == b.n {
			return true // the same NaN finds itself, as Python's identity check does
		}
		return b.IsNumber() && numCompare(&a, &b) == 0
	case None:
		return b.k == None
	case Undefined:
		return b.k == Undefined
	case String:
		return b.k == String && a.byteLen() == b.byteLen() && a.Str() == b.Str()
	case Tuple, List: // a list key is a range or a dict_values (keyHash)
		if b.k != a.k || viewOf(a) != viewOf(b) {
			return false
		}
		ad, bd := a.ref.(*ListData), b.ref.(*ListData)
		if ad == bd || ad.View() == "dict_values" {
			return ad == bd
		}
		ai, bi := ad.Items, bd.Items
		if len(ai) != len(bi) {
			return false
		}
		am, bm := atomic.LoadUint64(&ad.hmemo), atomic.LoadUint64(&bd.hmemo)
		if am&memoHashable == memoHashable && bm&memoHashable == memoHashable && am != bm {
			return false
		}
		for i := range ai {
			if !keyEqual(ai[i], bi[i]) {
				return false
			}
		}
		return true
	case Dict:
		return false
	}
	return a.k == b.k && a.ref == b.ref
}

// floatInt returns f as an int64 when f is integral and within int64.
func floatInt(f float64) (int64, bool) {
	if f >= -(1<<63) && f < 1<<63 && f == math.Trunc(f) {
		return int64(f), true
	}
	return 0, false
}
