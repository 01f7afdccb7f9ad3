package builtins

import (
	"math"
	"math/bits"
	"strconv"
	"strings"

	"github.com/jinjabox/jinjabox/budget"
	"github.com/jinjabox/jinjabox/engine/internal/errs"
	"github.com/jinjabox/jinjabox/engine/internal/vmem"
	"github.com/jinjabox/jinjabox/engine/value"
	"github.com/jinjabox/jinjabox/policy"
)

// The methods of dict, list, tuple, int and float.

func dictGet(c value.Ctx, recv value.Value, args *value.Args) value.Value {
	a := posArgs("get", args, 1, 2)
	c.Charge(budget.Elem, "dict.get")
	value.ChargeKey(c, a[0], "dict.get")
	if v, ok := recv.DictData().Get(a[0]); ok {
		return v
	}
	if a[1].IsMissing() {
		return value.NoneValue
	}
	return a[1]
}

func dictKeys(c value.Ctx, recv value.Value, args *value.Args) value.Value {
	posArgs("keys", args, 0, 0)
	d := recv.DictData()
	chargeElems(c, d.Len(), "dict.keys")
	return value.NewView("dict_keys", "", vmem.Append([]value.Value(nil), d.Keys()...))
}

func dictValues(c value.Ctx, recv value.Value, args *value.Args) value.Value {
	posArgs("values", args, 0, 0)
	d := recv.DictData()
	chargeElems(c, d.Len(), "dict.values")
	return value.NewView("dict_values", "", vmem.Append([]value.Value(nil), d.Values()...))
}

func dictItems(c value.Ctx, recv value.Value, args *value.Args) value.Value {
	posArgs("items", args, 0, 0)
	d := recv.DictData()
	// a (key, value) tuple a pair, charged what it allocates
	c.Charge(budget.Mul(int64(d.Len()), vmem.PairBytes), "dict.items")
	return value.NewView("dict_items", "", value.ItemPairs(d))
}

func dictCopy(c value.Ctx, recv value.Value, args *value.Args) value.Value {
	posArgs("copy", args, 0, 0)
	d := recv.DictData()
	c.Charge(budget.Mul(int64(d.Len()), vmem.DictEntryBytes), "dict.copy")
	return value.FromDict(d.Copy())
}

func dictFromkeys(c value.Ctx, recv value.Value, args *value.Args) value.Value {
	a := posArgs("fromkeys", args, 1, 2)
	keys := value.Iterate(c, a[0])
	v := value.NoneValue
	if !a[1].IsMissing() {
		v = a[1]
	}
	c.Charge(budget.Mul(int64(len(keys)), vmem.DictInsertUnits), "dict.fromkeys")
	d := value.NewDict(len(keys))
	for _, k := range keys {
		value.ChargeKey(c, k, "dict.fromkeys")
		d.Set(k, v)
	}
	return value.FromDict(d)
}

func seqCount(c value.Ctx, recv value.Value, args *value.Args) value.Value {
	a := posArgs("count", args, 1, 1)
	n := int64(0)
	for _, it := range recv.Items() {
		c.Charge(budget.Elem, recv.TypeName()+".count")
		if value.Equal(c, it, a[0]) {
			n++
		}
	}
	return value.FromInt(n)
}

func seqIndex(c value.Ctx, recv value.Value, args *value.Args) value.Value {
	a := posArgs("index", args, 1, 3)
	items := recv.Items()
	n := int64(len(items))
	start, end := adjust(optIndex(a[1], 0), optIndex(a[2], n), n)
	if end > n {
		end = n
	}
	for i := start; i < end; i++ {
		c.Charge(budget.Elem, recv.TypeName()+".index")
		if value.Equal(c, items[i], a[0]) {
			return value.FromInt(i)
		}
	}
	if recv.Kind() == value.Tuple {
		valueError("tuple.index(x): x not in tuple")
	}
	valueError(value.Repr(a[0]) + " is not in list")
	return value.Value{}
}

func listCopy(c value.Ctx, recv value.Value, args *value.Args) value.Value {
	posArgs("copy", args, 0, 0)
	chargeElems(c, len(recv.Items()), "list.copy")
	return value.NewList(vmem.Append([]value.Value(nil), recv.Items()...))
}

func intSelf(c value.Ctx, recv value.Value, args *value.Args) value.Value {
	posArgs("conjugate", args, 0, 0)
	return value.FromInt(recv.Int())
}

func intConst(n int64) methodFunc {
	return func(c value.Ctx, recv value.Value, args *value.Args) value.Value { return value.FromInt(n) }
}

func absU(n int64) uint64 {
	if n < 0 {
		return uint64(-(n + 1)) + 1
	}
	return uint64(n)
}

func floatSelf(c value.Ctx, recv value.Value, args *value.Args) value.Value {
	posArgs("conjugate", args, 0, 0)
	return recv
}

// floatRatio is float.as_integer_ratio within 64 bits (P6: wider is a
// budget error).
func floatRatio(c value.Ctx, recv value.Value, args *value.Args) value.Value {
	posArgs("as_integer_ratio", args, 0, 0)
	f := recv.Float()
	if math.IsInf(f, 0) {
		pyErr(errs.Render, "OverflowError", "cannot convert Infinity to integer ratio")
	}
	if math.IsNaN(f) {
		valueError("cannot convert NaN to integer ratio")
	}
	frac, exp := math.Frexp(f)
	for i := 0; i < 300 && frac != math.Floor(frac); i++ {
		frac *= 2
		exp--
	}
	num, den := frac, 1.0
	if exp > 0 {
		num = math.Ldexp(num, exp)
	} else {
		den = math.Ldexp(1, -exp)
	}
	if math.Abs(num) >= 1<<63 || den >= 1<<63 {
		errs.Raise(c.Meter().Overflow("float.as_integer_ratio"))
	}
	return value.NewTuple([]value.Value{value.FromInt(int64(num)), value.FromInt(int64(den))})
}

// FloatHex is Python's float.hex.
func FloatHex(f float64) string {
	switch {
	case math.IsNaN(f):
		return "nan"
	case math.IsInf(f, 1):
		return "inf"
	case math.IsInf(f, -1):
		return "-inf"
	}
	sign := ""
	if math.Signbit(f) {
		sign = "-"
		f = -f
	}
	if f == 0 {
		return sign + "0x0.0p+0"
	}
	b := math.Float64bits(f)
	exp := int((b >> 52) & 0x7ff)
	mant := b & (1<<52 - 1)
	lead := "1"
	if exp == 0 {
		lead = "0"
		exp = -1022
	} else {
		exp -= 1023
	}
	m := strconv.FormatUint(mant, 16)
	m = strings.Repeat("0", 13-len(m)) + m
	es := strconv.Itoa(exp)
	if exp >= 0 {
		es = "+" + es
	}
	return sign + "0x" + lead + "." + m + "p" + es
}

func init() {
	impls[policy.Dict] = map[string]methodFunc{
		"get": dictGet, "keys": dictKeys, "values": dictValues, "items": dictItems,
		"copy": dictCopy, "fromkeys": dictFromkeys,
	}
	impls[policy.List] = map[string]methodFunc{"count": seqCount, "index": seqIndex, "copy": listCopy}
	impls[policy.Tuple] = map[string]methodFunc{"count": seqCount, "index": seqIndex}
	impls[policy.Int] = map[string]methodFunc{
		"as_integer_ratio": func(c value.Ctx, recv value.Value, args *value.Args) value.Value {
			posArgs("as_integer_ratio", args, 0, 0)
			return value.NewTuple([]value.Value{value.FromInt(recv.Int()), value.FromInt(1)})
		},
		"bit_count": func(c value.Ctx, recv value.Value, args *value.Args) value.Value {
			posArgs("bit_count", args, 0, 0)
			return value.FromInt(int64(bits.OnesCount64(absU(recv.Int()))))
		},
		"bit_length": func(c value.Ctx, recv value.Value, args *value.Args) value.Value {
			posArgs("bit_length", args, 0, 0)
			return value.FromInt(int64(bits.Len64(absU(recv.Int()))))
		},
		"conjugate":   intSelf,
		"real":        func(c value.Ctx, recv value.Value, _ *value.Args) value.Value { return value.FromInt(recv.Int()) },
		"numerator":   func(c value.Ctx, recv value.Value, _ *value.Args) value.Value { return value.FromInt(recv.Int()) },
		"imag":        intConst(0),
		"denominator": intConst(1),
	}
	impls[policy.Float] = map[string]methodFunc{
		"as_integer_ratio": floatRatio,
		"conjugate":        floatSelf,
		"real":             func(c value.Ctx, recv value.Value, _ *value.Args) value.Value { return recv },
		"imag":             func(c value.Ctx, recv value.Value, _ *value.Args) value.Value { return value.FromFloat(0) },
		"hex": func(c value.Ctx, recv value.Value, args *value.Args) value.Value {
			posArgs("hex", args, 0, 0)
			return value.FromString(FloatHex(recv.Float()))
		},
		"is_integer": func(c value.Ctx, recv value.Value, args *value.Args) value.Value {
			posArgs("is_integer", args, 0, 0)
			f := recv.Float()
			return value.FromBool(!math.IsInf(f, 0) && f == math.Trunc(f))
		},
	}
}
