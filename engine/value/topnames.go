package value

import (
	"slices"

	"github.com/jinjabox/jinjabox/engine/internal/vmem"
)

// TopNames is the set of top-level names a template can read: the only
// names of its data a render copies in (Copier.CopyReadInto). A template
// reads a top-level name through a name in its source alone (a template
// holds no way to build a name at run time and look it up), so the set
// is known once the template is parsed. Immutable once made: the
// templates' renders share it, and the dicts of their data share its
// keys (DictData.shareKeys).
type TopNames struct {
	names []string // sorted, distinct
	// keys is names as dict keys, an array nothing writes, made for at
	// most smallDict names (the dicts that share their keys)
	keys []Value
}

// NewTopNames returns the set of names (in any order, repeats allowed),
// sorted in place.
func NewTopNames(names []string) *TopNames {
	slices.Sort(names)
	t := &TopNames{names: slices.Clip(slices.Compact(names))}
	if len(t.names) <= smallDict {
		//fresh:ok at most smallDict names
		t.keys = make([]Value, len(t.names)) //scratch:ok at most smallDict names
		for i, n := range t.names {
			t.keys[i] = FromString(n)
		}
	}
	return t
}

// has reports whether name is in t.
func (t *TopNames) has(name string) bool {
	_, ok := slices.BinarySearch(t.names, name)
	return ok
}

// Len is the number of names.
func (t *TopNames) Len() int { return len(t.names) }

// CopyReadInto is CopyMapInto for a template that reads only the names
// in want: it copies the names of data that want holds, in key order as
// CopyMapInto does (so the first refusal is the same every time, and the
// one CopyMapInto would meet first among them), and leaves the others
// alone: a value no name of the template can reach is neither copied,
// counted against the ceilings nor refused. The top-level mapping's own
// size is still checked (MaxContainerEntries). It looks up want's names
// in data when they are at most as many as data's, and walks data's
// sorted keys otherwise: the work is within the size of data either
// way, never of the template's list of names.
func (c *Copier) CopyReadInto(d *DictData, data map[string]any, want *TopNames) (*DictData, error) {
	if err := topSize(data); err != nil {
		return nil, err
	}
	names := want.names
	if len(names) > len(data) {
		return c.copyReadKeys(d, data, want)
	}
	if cap(c.topAt) < len(names) {
		//scratch:ok copy-in: no more names than the data has (the other case is copyReadKeys)
		c.topAt = vmem.Fresh(make([]any, len(names)))
	}
	// one lookup a name: the values found go to vals in order, and once
	// a name is missing, the names found go to the Copier's stack
	vals := c.topAt[:len(names)]
	base := len(c.keys)
	n := 0
	for i, k := range names {
		v, ok := data[k]
		if !ok {
			if n == i { // the first missing name: those before it were found
				c.keys = vmem.Append(c.keys, names[:i]...)
			}
			continue
		}
		if n < i {
			c.keys = append(vmem.Grown(c.keys), k) //scratch:ok copy-in: no more names than the data has
		}
		vals[n] = v
		n++
	}
	d = emptied(d, n)
	var err error
	if n == len(names) && want.keys != nil && d.ix == nil {
		// every name is there: its values go straight into d, under
		// want's keys, which d shares
		d.shareKeys(want.keys, n)
		err = c.copyPlaced(names, vals, d.vals)
	} else {
		found := names
		if n < len(names) {
			found = c.keys[base:]
		}
		err = c.copyNames(d, data, found, vals[:n])
	}
	c.keys = c.keys[:base]
	return c.placed(d, vals, err)
}

// copyReadKeys is CopyReadInto when want has more names than data: data's
// sorted keys that want holds.
func (c *Copier) copyReadKeys(d *DictData, data map[string]any, want *TopNames) (*DictData, error) {
	base := len(c.keys)
	defer func() { c.keys = c.keys[:base] }()
	keys := sortedKeys(c, data)
	kept := keys[:0] // filtered in place: the Copier's own stack
	for _, k := range keys {
		if want.has(k) {
			kept = append(kept, k) //scratch:ok in place: kept is keys' own array, never longer
		}
	}
	return c.copyTop(emptied(d, len(kept)), data, kept)
}
