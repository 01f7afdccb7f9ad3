package templating

import (
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/jinjabox/jinjabox/budget"
	"github.com/jinjabox/jinjabox/engine/value"
)

// toJSON encodes a template value as JSON, charging its size first.
// Dict order is kept (determinism); objects encode as their text.
func toJSON(c value.Ctx, v value.Value) string {
	chargeSize(c, v, budget.EscapeFactor, "encoding JSON")
	var sb strings.Builder
	writeJSON(&sb, v, 0)
	return sb.String()
}

const maxJSONDepth = 256

func writeJSON(sb *strings.Builder, v value.Value, depth int) {
	if depth > maxJSONDepth {
		sb.WriteString("null")
		return
	}
	switch v.Kind() {
	case value.Undefined, value.None:
		sb.WriteString("null")
	case value.Bool:
		if v.Bool() {
			sb.WriteString("true")
		} else {
			sb.WriteString("false")
		}
	case value.Int:
		sb.WriteString(strconv.FormatInt(v.Int(), 10))
	case value.Float:
		sb.WriteString(strconv.FormatFloat(v.Float(), 'g', -1, 64))
	case value.String:
		sb.WriteString(jsonString(v.Str()))
	case value.List, value.Tuple:
		sb.WriteByte('[')
		for i, it := range v.Items() {
			if i > 0 {
				sb.WriteString(", ")
			}
			writeJSON(sb, it, depth+1)
		}
		sb.WriteByte(']')
	case value.Dict:
		d := v.DictData()
		sb.WriteByte('{')
		for i := 0; i < d.Len(); i++ {
			if i > 0 {
				sb.WriteString(", ")
			}
			sb.WriteString(jsonString(value.ToString(d.KeyAt(i))))
			sb.WriteString(": ")
			writeJSON(sb, d.ValAt(i), depth+1)
		}
		sb.WriteByte('}')
	default:
		if img, ok := imageOf(nil, v); ok {
			sb.WriteString(`{"url": ` + jsonString(img.URL) + "}")
			return
		}
		sb.WriteString(jsonString(value.ToString(v)))
	}
}

// jsonString quotes s as a JSON string (control characters escaped,
// valid UTF-8 kept as is, invalid bytes replaced).
func jsonString(s string) string {
	var sb strings.Builder
	sb.Grow(len(s) + 2)
	sb.WriteByte('"')
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		i += size
		switch {
		case r == '"':
			sb.WriteString(`\"`)
		case r == '\\':
			sb.WriteString(`\\`)
		case r == '\n':
			sb.WriteString(`\n`)
		case r == '\r':
			sb.WriteString(`\r`)
		case r == '\t':
			sb.WriteString(`\t`)
		case r < 0x20 || r == 0x2028 || r == 0x2029:
			sb.WriteString(`\u` + strconv.FormatInt(int64(r)|0x10000, 16)[1:])
		case r == utf8.RuneError && size == 1:
			sb.WriteString(`\ufffd`)
		default:
			sb.WriteRune(r)
		}
	}
	sb.WriteByte('"')
	return sb.String()
}
