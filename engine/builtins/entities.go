package builtins

import "github.com/jinjabox/jinjabox/engine/ordered"

// html5Entities is html.entities.html5 (html5EntityTable) as the lookup
// Markup.unescape and striptags read.
var html5Entities = newEntityTable(html5EntityTable())

// entityTable is a table from names to replacement texts, the names in
// sorted order, held as two strings (the names, then the texts, end to
// end) and the offsets where each entry's name and text end. Its 2,231
// entries hold no pointer: a Go map of them was 160 kB of live heap of
// pointers, which every collection of the host's heap scanned, in a worker
// whose templates may never unescape anything (docs/COSTS.md, the
// engine's live heap).
type entityTable struct {
	names, texts     string
	nameEnd, textEnd []uint32
}

// newEntityTable builds the table of m.
func newEntityTable(m map[string]string) *entityTable {
	t := &entityTable{nameEnd: make([]uint32, 0, len(m)), textEnd: make([]uint32, 0, len(m))}
	var names, texts []byte
	for _, k := range ordered.Keys(m) {
		names, texts = append(names, k...), append(texts, m[k]...)
		t.nameEnd, t.textEnd = append(t.nameEnd, uint32(len(names))), append(t.textEnd, uint32(len(texts)))
	}
	t.names, t.texts = string(names), string(texts)
	return t
}

// lookup returns the replacement text of the entity name, by binary
// search of the sorted names.
func (t *entityTable) lookup(name string) (string, bool) {
	lo, hi := 0, len(t.nameEnd)
	for lo < hi {
		mid := int(uint(lo+hi) >> 1)
		if t.name(mid) < name {
			lo = mid + 1
		} else {
			hi = mid
		}
	}
	if lo < len(t.nameEnd) && t.name(lo) == name {
		return t.texts[t.start(t.textEnd, lo):t.textEnd[lo]], true
	}
	return "", false
}

// name is entry i's name.
func (t *entityTable) name(i int) string { return t.names[t.start(t.nameEnd, i):t.nameEnd[i]] }

// start is where entry i begins in the string whose end offsets are ends.
func (t *entityTable) start(ends []uint32, i int) uint32 {
	if i == 0 {
		return 0
	}
	return ends[i-1]
}
