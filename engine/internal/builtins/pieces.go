package builtins

import (
	"strings"

	"github.com/jinjabox/jinjabox/engine/internal/strutil"
)

// pieces collects a formatted result's parts (literal text and converted
// fields, the large ones strings that already exist) and joins them once,
// into a builder of their exact size. Written piece by piece into a
// builder, the result grew by a quarter at a time past a few hundred
// bytes, copying it about four more times (% and str.format: 3.0 bytes
// allocated a unit charged). A piece shorter than smallPiece is copied
// into small instead of kept by reference, so a format of many tiny
// pieces ('%%' * n) never holds a 16-byte header for each.
//
// It also counts the result's code points, so the value made of it is
// not scanned again: a piece whose count its maker knows is added with
// it (addCounted), the others are counted as they are added.
type pieces struct {
	parts []string
	small []byte
	runes int
}

const smallPiece = 64

func (p *pieces) add(s string) { p.addCounted(s, int64(strutil.RuneLen(s))) }

// addCounted adds s, of n code points.
func (p *pieces) addCounted(s string, n int64) {
	p.runes += int(n)
	if len(s) < smallPiece {
		p.small = append(p.small, s...)
		return
	}
	p.flush()
	p.parts = append(p.parts, s)
}

func (p *pieces) flush() {
	if len(p.small) > 0 {
		p.parts = append(p.parts, string(p.small))
		p.small = p.small[:0]
	}
}

// join concatenates the pieces.
func (p *pieces) join() string {
	p.flush()
	if len(p.parts) == 1 {
		return p.parts[0]
	}
	n := 0
	for _, s := range p.parts {
		n += len(s)
	}
	var sb strings.Builder
	sb.Grow(n)
	for _, s := range p.parts {
		sb.WriteString(s)
	}
	return sb.String()
}
