package builtins

import (
	"strings"
	"sync"

	"github.com/jinjabox/jinjabox/engine/ordered"
)

// html5Entities is html.entities.html5 (html5EntityTable) as the lookup
// Markup.unescape and striptags read, built on first use: built at init
// it was 3-9 ms of CPU and 400 kB allocated in every process that links
// the engine, before anything ran (most never unescape an entity; a
// `jinjabox check` of one case paid it, issue 29).
var html5Entities = sync.OnceValue(func() *entityTable {
	return newEntityTable(html5EntityTable())
})

// legacyEntities are the entities of html5Entities whose names have no
// ';' (html's legacy ones: "amp", "lt", "AElig"), the only ones a prefix
// of a longer name can be (writeCharref).
var legacyEntities = sync.OnceValue(func() *entityTable {
	all := html5EntityTable()
	legacy := map[string]string{}
	for _, k := range ordered.Keys(all) {
		if !strings.HasSuffix(k, ";") {
			legacy[k] = all[k]
		}
	}
	return newEntityTable(legacy)
})

// legacyMax is the longest legacy entity name (TestLegacyEntities holds
// it to the table).
const legacyMax = 6

// entityTable is a table from names to replacement texts, the names in
// sorted order, held as two strings (the names, then the texts, end to
// end) and the offsets where each entry's name and text begin, one more
// than the entries (the last is the string's length): entry i is
// names[name[i]:name[i+1]]. Its 2,231
// entries hold no pointer: a Go map of them was 160 kB of live heap of
// pointers, which every collection of the host's heap scanned, in a worker
// whose templates may never unescape anything (docs/COSTS.md, the
// engine's live heap).
type entityTable struct {
	names, texts string
	name, text   []uint32
	// index is an open-addressing hash of the names: entry i+1 in the
	// slot its name's hash picks, or the next free one (0: empty), a
	// power of two at least twice the entries. A binary search of the
	// 2,231 names was 45% of striptags on text of entities (55 ns a
	// lookup).
	index []uint16
}

// entityHash is FNV-1a of a name (at most 33 bytes).
func entityHash(name string) uint32 {
	h := uint32(2166136261)
	for i := 0; i < len(name); i++ {
		h = (h ^ uint32(name[i])) * 16777619
	}
	return h
}

// newEntityTable builds the table of m.
func newEntityTable(m map[string]string) *entityTable {
	//scratch:ok init: the HTML entity table, built once from a constant map
	t := &entityTable{name: make([]uint32, 1, len(m)+1), text: make([]uint32, 1, len(m)+1)}
	var names, texts []byte
	for _, k := range ordered.Keys(m) {
		//scratch:ok init: the HTML entity table, built once from a constant map
		names, texts = append(names, k...), append(texts, m[k]...)
		//scratch:ok init: the HTML entity table, built once from a constant map
		t.name, t.text = append(t.name, uint32(len(names))), append(t.text, uint32(len(texts)))
	}
	t.names, t.texts = string(names), string(texts)
	size := 16
	for size < 2*t.len() {
		size *= 2
	}
	//scratch:ok init: the HTML entity table's index, built once
	t.index = make([]uint16, size)
	for i := 0; i < t.len(); i++ {
		h := entityHash(t.nameAt(i))
		for t.index[h&uint32(size-1)] != 0 {
			h++
		}
		t.index[h&uint32(size-1)] = uint16(i + 1)
	}
	return t
}

// len is the number of entries.
func (t *entityTable) len() int { return len(t.name) - 1 }

// nameAt is entry i's name.
func (t *entityTable) nameAt(i int) string { return t.names[t.name[i]:t.name[i+1]] }

// lookup returns the replacement text of the entity name, by its hash.
func (t *entityTable) lookup(name string) (string, bool) {
	mask := uint32(len(t.index) - 1)
	for h := entityHash(name); ; h++ {
		e := int(t.index[h&mask])
		if e == 0 {
			return "", false
		}
		if t.nameAt(e-1) == name {
			return t.texts[t.text[e-1]:t.text[e]], true
		}
	}
}
