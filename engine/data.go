package engine

import (
	"errors"
	"fmt"

	"github.com/jinjabox/jinjabox/engine/internal/errs"
	"github.com/jinjabox/jinjabox/engine/value"
)

// ErrCanceled is what a render cancelled by its host wraps
// (RenderOptions.Context): errors.Is(err, ErrCanceled) holds, and so does
// errors.Is(err, context.Canceled) or context.DeadlineExceeded. Its kind
// is KindRender, not KindBudget: the render did not overdraw, its host
// stopped it.
var ErrCanceled = errors.New("render canceled by its host")

// The data of a render (Render, RenderResult, Execute, RenderValue,
// RenderString, Prepare) is one of:
//   - a map[string]any, copied in at the start of the render: the names
//     its template can read, no other (checkInfo.reads);
//   - a *Prepared, prepared once (Environment.Prepare), not copied again;
//   - a *value.OrderedMap, its names in their order;
//   - nil, no data.
// Below the top level, any JSON-shaped value the copier lists
// (ToValue). A struct, a pointer to one, a typed map or slice, a
// time.Time: package godata converts them (godata.Map for the top level),
// by reflection, in the host: the engine runs inside workflow code and
// never reflects.

// copyAny copies top-level data that is not a map[string]any: it must
// copy to a dict.
func copyAny(data any) (*value.DictData, copied, error) {
	cp := copiers.Get().(*value.Copier)
	defer copiers.Put(cp)
	cp.Reset()
	v, err := cp.Copy(data)
	if err != nil {
		cp.Reset()
		return nil, copied{}, err
	}
	res := copied{entries: cp.Entries(), bytes: cp.Bytes(), sawObject: cp.SawObject()}
	cp.Reset()
	if v.Kind() == value.None {
		return value.NewDict(0), res, nil
	}
	if v.Kind() != value.Dict {
		return nil, copied{}, errs.New(errs.Type, "the data of a render must be a map (an object), not Go type "+
			fmt.Sprintf("%T", data)+", which copies to a "+v.Kind().String())
	}
	res.d = v.DictData()
	return res.d, res, nil
}

// bindAny binds a render's data, whatever its Go type (see above). A
// map[string]any is copied in for the names reads holds alone (nil: all
// of them), the names its template can read (topNames).
func (r *renderer) bindAny(data any, reads *value.TopNames) {
	switch d := data.(type) {
	case map[string]any:
		r.bindData(d, reads)
	case *Prepared:
		if d == nil {
			d = &Prepared{}
		}
		r.bindDict(d.data, d.data.Len())
	default:
		dd, c, err := copyAny(data)
		if err != nil {
			errs.Raise(err)
		}
		r.arenaSeen = r.arenaSeen || c.sawObject
		r.bindDict(dd, dd.Len())
	}
}

// ToValue copies JSON-shaped Go data (map[string]any, []any, strings,
// numbers, json.Number, bools, nil, *value.OrderedMap, and the common
// typed slices and maps) into the closed value model, under the copy-in
// ceilings of a render's data: for a host that builds values of its own
// (the content of a host object, a global). Anything else (a func, a
// channel, a struct: package godata converts a struct first) is refused
// with a KindType error naming the path and the Go type, and data past
// the ceilings with a KindType or KindBudget one.
func ToValue(x any) (Value, error) {
	var c value.Copier
	v, err := c.Copy(x)
	return v, public(err)
}
