package methodfile

import (
	"errors"
	"strconv"
	"strings"

	"github.com/jinjabox/jinjabox/engine/value"
	"github.com/pelletier/go-toml/v2"
	"github.com/pelletier/go-toml/v2/unstable"
)

// A TOML document as the loader reads it: an ordered tree where every key
// and every value knows its line and column. go-toml's decoder checks the
// document against TOML 1.0 first (duplicate keys, redefined tables, bad
// escapes, ...) and reports the first error with its position; the tree
// is then built from go-toml's parser AST, which keeps source ranges and
// key order (a construct's fields and a concept's structure are ordered).

type kind int

const (
	kTable kind = iota
	kArray
	kString
	kInteger
	kFloat
	kBool
	kDatetime
)

func (k kind) String() string {
	return [...]string{"a table", "an array", "a string", "an integer", "a float", "a boolean", "a date-time"}[k]
}

// pos is a 1-based line and column in the file.
type pos struct{ line, col int }

// tnode is one TOML value.
type tnode struct {
	kind kind
	// at is where the key (or table header, or array item) is.
	at pos
	// content is where a string's text starts (after the opening quotes
	// and the newline TOML trims after """), so template positions map
	// back to file positions; escapes make it approximate after them.
	content pos
	// Tables: keys in document order.
	keys []string
	kids map[string]*tnode
	// Arrays.
	items []*tnode
	// Scalars: string, int64, float64, bool; date-times as their text.
	val any
	// arrayOfTables marks [[x]] arrays (a later [x.y] header extends the
	// last element).
	arrayOfTables bool
}

func newTable(at pos) *tnode { return &tnode{kind: kTable, at: at, kids: map[string]*tnode{}} }

// get returns the child under key, or nil.
func (t *tnode) get(key string) *tnode {
	if t == nil || t.kind != kTable {
		return nil
	}
	return t.kids[key]
}

func (t *tnode) set(key string, n *tnode) {
	if _, ok := t.kids[key]; !ok {
		t.keys = append(t.keys, key)
	}
	t.kids[key] = n
}

// SyntaxError is a TOML document that does not parse, with its position.
type SyntaxError struct {
	Line, Col int
	Message   string
}

func (e *SyntaxError) Error() string {
	return "line " + strconv.Itoa(e.Line) + ", col " + strconv.Itoa(e.Col) + ": " + e.Message
}

// docBuilder builds the tree from the parser's AST.
type docBuilder struct {
	p          *unstable.Parser
	data       []byte
	lineStarts []int
}

// parseDoc checks and parses a TOML document.
func parseDoc(data []byte) (*tnode, error) {
	var probe any
	if err := toml.Unmarshal(data, &probe); err != nil {
		var de *toml.DecodeError
		if errors.As(err, &de) {
			line, col := de.Position()
			return nil, &SyntaxError{Line: line, Col: col, Message: strings.TrimPrefix(de.Error(), "toml: ")}
		}
		return nil, &SyntaxError{Line: 1, Col: 1, Message: err.Error()}
	}
	b := &docBuilder{p: &unstable.Parser{}, data: data, lineStarts: []int{0}}
	for i, c := range data {
		if c == '\n' {
			b.lineStarts = append(b.lineStarts, i+1)
		}
	}
	b.p.Reset(data)
	root := newTable(pos{1, 1})
	cur := root
	for b.p.NextExpression() {
		e := b.p.Expression()
		switch e.Kind {
		case unstable.Table, unstable.ArrayTable:
			keys, at := b.keyParts(e.Key())
			t := root
			for i, k := range keys {
				last := i == len(keys)-1
				kid := t.get(k)
				switch {
				case last && e.Kind == unstable.ArrayTable:
					if kid == nil {
						kid = &tnode{kind: kArray, at: at[i], arrayOfTables: true}
						t.set(k, kid)
					}
					el := newTable(at[i])
					kid.items = append(kid.items, el)
					kid = el
				case kid == nil:
					kid = newTable(at[i])
					t.set(k, kid)
				case kid.kind == kArray && len(kid.items) > 0:
					kid = kid.items[len(kid.items)-1]
				}
				if last && e.Kind == unstable.Table {
					kid.at = at[i] // the header defines the table here
				}
				t = kid
			}
			cur = t
		case unstable.KeyValue:
			b.keyValue(cur, e)
		}
	}
	if err := b.p.Error(); err != nil {
		// Unreachable after the decoder accepted the document, but a
		// parser disagreement must not pass silently.
		return nil, &SyntaxError{Line: 1, Col: 1, Message: err.Error()}
	}
	return root, nil
}

// position turns a byte offset into a line and column.
func (b *docBuilder) position(off int) pos {
	lo, hi := 0, len(b.lineStarts)
	for hi-lo > 1 {
		mid := (lo + hi) / 2
		if b.lineStarts[mid] <= off {
			lo = mid
		} else {
			hi = mid
		}
	}
	return pos{lo + 1, off - b.lineStarts[lo] + 1}
}

func (b *docBuilder) keyParts(it unstable.Iterator) ([]string, []pos) {
	var keys []string
	var at []pos
	for it.Next() {
		n := it.Node()
		keys = append(keys, string(n.Data))
		at = append(at, b.position(int(n.Raw.Offset)))
	}
	return keys, at
}

// keyValue sets a (possibly dotted) key of t.
func (b *docBuilder) keyValue(t *tnode, e *unstable.Node) {
	keys, at := b.keyParts(e.Key())
	for i, k := range keys[:len(keys)-1] {
		kid := t.get(k)
		if kid == nil {
			kid = newTable(at[i])
			t.set(k, kid)
		}
		t = kid
	}
	v := b.value(e.Value(), at[len(at)-1])
	v.at = at[len(at)-1]
	t.set(keys[len(keys)-1], v)
}

// value converts one AST value; at is the fallback position.
func (b *docBuilder) value(n *unstable.Node, at pos) *tnode {
	here := at
	if n.Raw.Length > 0 || n.Raw.Offset > 0 {
		here = b.position(int(n.Raw.Offset))
	}
	switch n.Kind {
	case unstable.String:
		off := int(n.Raw.Offset)
		raw := b.p.Raw(n.Raw)
		switch {
		case strings.HasPrefix(string(raw), `"""`) || strings.HasPrefix(string(raw), `'''`):
			off += 3
			if off < len(b.data) && b.data[off] == '\n' {
				off++
			} else if off+1 < len(b.data) && b.data[off] == '\r' && b.data[off+1] == '\n' {
				off += 2
			}
		default:
			off++
		}
		return &tnode{kind: kString, at: here, content: b.position(off), val: string(n.Data)}
	case unstable.Bool:
		return &tnode{kind: kBool, at: here, val: string(n.Data) == "true"}
	case unstable.Integer:
		// Base 0 reads TOML's 0x, 0o, 0b and underscores; the decoder has
		// already refused leading zeros, which Go would read as octal.
		v, _ := strconv.ParseInt(string(n.Data), 0, 64)
		return &tnode{kind: kInteger, at: here, val: v}
	case unstable.Float:
		v, _ := strconv.ParseFloat(strings.ReplaceAll(string(n.Data), "_", ""), 64)
		return &tnode{kind: kFloat, at: here, val: v}
	case unstable.LocalDate, unstable.LocalTime, unstable.LocalDateTime, unstable.DateTime:
		return &tnode{kind: kDatetime, at: here, val: string(n.Data)}
	case unstable.Array:
		arr := &tnode{kind: kArray, at: here}
		it := n.Children()
		for it.Next() {
			c := it.Node()
			if c.Kind == unstable.Comment {
				continue
			}
			arr.items = append(arr.items, b.value(c, here))
		}
		return arr
	case unstable.InlineTable:
		t := newTable(here)
		it := n.Children()
		for it.Next() {
			c := it.Node()
			if c.Kind == unstable.KeyValue {
				b.keyValue(t, c)
			}
		}
		return t
	}
	return &tnode{kind: kString, at: here, val: string(n.Data)}
}

// plain converts a value to plain data for extra_context and construct
// literals: tables become ordered maps.
func (t *tnode) plain() any {
	switch t.kind {
	case kTable:
		m := &value.OrderedMap{}
		for _, k := range t.keys {
			m.Keys = append(m.Keys, k)
			m.Values = append(m.Values, t.kids[k].plain())
		}
		return m
	case kArray:
		out := make([]any, len(t.items))
		for i, it := range t.items {
			out[i] = it.plain()
		}
		return out
	}
	return t.val
}
