package builtins

import (
	"regexp"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/jinjabox/jinjabox/budget"
	"github.com/jinjabox/jinjabox/engine/internal/errs"
	"github.com/jinjabox/jinjabox/engine/internal/strutil"
	"github.com/jinjabox/jinjabox/engine/internal/vmem"
	"github.com/jinjabox/jinjabox/engine/internal/vops"
	"github.com/jinjabox/jinjabox/engine/ordered"
	"github.com/jinjabox/jinjabox/engine/value"
)

// HTML filters: escape, forceescape, safe, striptags, xmlattr, urlize,
// urlencode. Every escape is charged at the escape factor first.

func init() {
	regFilter(fEscape, "escape", "e")
	regFilter(fForceescape, "forceescape")
	regFilter(fSafe, "safe")
	regFilter(fStriptags, "striptags")
	regFilter(fXmlattr, "xmlattr")
	regFilter(fUrlize, "urlize")
	regFilter(fUrlencode, "urlencode")
}

// chargeEscape charges for escaping s (the output may grow sixfold).
func chargeEscape(c value.Ctx, s string, op string) {
	c.Charge(budget.Mul(int64(len(s)), budget.EscapeFactor), op)
}

func fEscape(c value.Ctx, v value.Value, args *value.Args) value.Value {
	noArgs(args, "escape")
	if v.IsSafe() {
		return v
	}
	s := pyStr(c, v)
	chargeEscape(c, s, "filter escape")
	return value.Safe(value.EscapeHTML(s))
}

// fForceescape escapes even markup (its __html__ text is escaped again).
func fForceescape(c value.Ctx, v value.Value, args *value.Args) value.Value {
	noArgs(args, "do_forceescape")
	s := pyStr(c, v)
	chargeEscape(c, s, "filter forceescape")
	return value.Safe(value.EscapeHTML(s))
}

func fSafe(c value.Ctx, v value.Value, args *value.Args) value.Value {
	noArgs(args, "do_mark_safe")
	if v.IsString() {
		return v.MarkSafe() // keeps the count: O(1), as Markup(s) is
	}
	return value.Safe(pyStr(c, v))
}

// stripPattern removes every match of open.*?close (DOTALL, non-greedy) in
// one linear pass. It returns the kept text and what Python's regex engine
// would have spent: a failed attempt at an opener with no closer after it
// scans to the end, which is what makes the reference quadratic.
func stripPattern(c value.Ctx, s, open, close string) string {
	if !strutil.Contains(s, open) {
		return s // nothing to strip: no copy
	}
	var sb strings.Builder
	sb.Grow(len(s)) // the kept text is at most s: grown once, not by doubling
	// pending is what the work since the last charge costs: each match
	// is a piece re.sub builds and joins (2 elements) plus the bytes its
	// pattern scanned; charged every matchChunk steps, so a search that
	// the units refuse is refused while it runs, not priced to its end
	// first (red team round 3: 19 M unclosed '<' walked for 0.45 s before
	// the refusal)
	var pending, steps int64
	step := func(units int64) {
		pending = budget.Add(pending, units)
		if steps++; steps%matchChunk == 0 {
			c.Charge(pending, "filter striptags")
			pending = 0
		}
	}
	n := len(s)
	i := 0
	for {
		k := strutil.Index(s[i:], open)
		if k < 0 {
			c.Charge(pending, "filter striptags")
			sb.WriteString(s[i:])
			return sb.String()
		}
		k += i
		j := strutil.Index(s[k+len(open):], close)
		if j < 0 {
			// this opener and every later one fail after scanning to the end
			for p := k; p >= 0 && p < n; {
				step(int64(n - p))
				q := strutil.Index(s[p+1:], open)
				if q < 0 {
					break
				}
				p += 1 + q
			}
			c.Charge(pending, "filter striptags")
			sb.WriteString(s[i:])
			return sb.String()
		}
		end := k + len(open) + j + len(close)
		sb.WriteString(s[i:k])
		step(2*budget.Elem + int64(end-k))
		i = end
	}
}

// fStriptags is Markup.striptags: drop comments, then tags, collapse
// whitespace, unescape entities. The result is a plain str.
func fStriptags(c value.Ctx, v value.Value, args *value.Args) value.Value {
	noArgs(args, "do_striptags")
	s := pyStr(c, v)
	c.Charge(budget.Mul(int64(len(s)), budget.EscapeFactor), "filter striptags")
	s = stripPattern(c, s, "<!--", "-->")
	s = stripPattern(c, s, "<", ">")
	return value.FromString(HTMLUnescape(collapseSpace(s)))
}

// collapseSpace is " ".join(s.split()): the words of s (Python's
// whitespace) one space apart, written in one pass into one buffer of
// s's size. Splitting into a slice of words first allocated a string
// header a word, 16 bytes for every 2-byte word of "ab\n" repeated: over
// four bytes a unit charged (the cost search's striptags SL shape).
func collapseSpace(s string) string {
	var sb strings.Builder
	sb.Grow(len(s))
	for i := 0; i < len(s); {
		// a word: its bytes up to the next whitespace, written as one run
		// (a write a code point was most of striptags' time)
		j := i
		for j < len(s) {
			if b := s[j]; b < utf8.RuneSelf {
				if asciiSpace(b) {
					break
				}
				j++
				continue
			}
			r, w := utf8.DecodeRuneInString(s[j:])
			if pyIsSpace(r) {
				break
			}
			j += w
		}
		if j > i {
			if sb.Len() > 0 {
				sb.WriteByte(' ')
			}
			sb.WriteString(s[i:j])
			i = j
			continue
		}
		// whitespace: skipped
		if s[i] < utf8.RuneSelf {
			i++
		} else {
			_, w := utf8.DecodeRuneInString(s[i:])
			i += w
		}
	}
	return sb.String()
}

// isAttrKeyBad is Jinja's _attr_key_re [\s/>=] (ASCII whitespace).
func isAttrKeyBad(s string) bool {
	for i := 0; i < len(s); i++ {
		if attrKeyBad[s[i]] {
			return true
		}
	}
	return false
}

// attrKeyBad are the bytes refused in an attribute name, a table read a
// byte (a ContainsAny built its set each call: a fifth of xmlattr).
var attrKeyBad = [256]bool{' ': true, '\t': true, '\n': true, '\r': true, '\f': true, '\v': true, '/': true, '>': true, '=': true}

// fXmlattr is Jinja 3.1.2's do_xmlattr: escaped key="value" pairs, None
// and undefined values skipped, keys with attribute-breaking characters
// refused.
func fXmlattr(c value.Ctx, v value.Value, args *value.Args) value.Value {
	a := bind(args, "do_xmlattr", "autospace")
	autospace := argBool(a[0], true)
	if v.IsUndefined() {
		vops.ThrowUndefined(v)
	}
	if v.Kind() != value.Dict {
		errs.Throwf(errs.Type, "%s object has no attribute 'items'", errs.Quote(v.TypeName()))
	}
	d := v.DictData()
	c.Charge(budget.Mul(int64(d.Len()), budget.Elem), "filter xmlattr")
	// the pairs are written escaped straight into the result (a string
	// a pair, their join and the leading space each copied it again)
	var sb strutil.TextWriter
	first := true
	for i := 0; i < d.Len(); i++ {
		k, val := d.KeyAt(i), d.ValAt(i)
		if val.IsNone() || val.IsUndefined() {
			continue
		}
		if !k.IsString() {
			errs.Throw(errs.Type, "expected string or bytes-like object")
		}
		if isAttrKeyBad(k.Str()) {
			errs.Throwf(errs.Render, "Invalid character in attribute name: %s", errs.Quote(k.Str()))
		}
		ks, vs := k.Str(), pyStr(c, val)
		chargeEscape(c, ks, "filter xmlattr")
		chargeEscape(c, vs, "filter xmlattr")
		// room for the pair, counted: a long value's escapes grew the
		// text through its arrays (5 times its size allocated)
		kn, vn := len(ks), len(val.Str())
		if !k.IsSafe() {
			kn = strutil.EscapedHTMLLen(ks)
		}
		if !val.IsSafe() {
			vn = strutil.EscapedHTMLLen(vs)
		}
		sb.Grow(kn + vn + 4)
		if !first || autospace {
			sb.WriteByte(' ')
		}
		first = false
		if k.IsSafe() {
			sb.WriteString(ks)
		} else {
			strutil.WriteEscapedHTML(&sb, ks)
		}
		sb.WriteString(`="`)
		if val.IsSafe() {
			sb.WriteString(val.Str())
		} else {
			strutil.WriteEscapedHTML(&sb, vs)
		}
		sb.WriteByte('"')
	}
	if c.Autoescape() {
		return value.Safe(sb.String())
	}
	return value.FromString(sb.String())
}

// Python's \s, \w and \d for str patterns, as RE2 classes (Go's shorthand
// classes are ASCII-only).
const (
	pyWS   = `\t\n\v\f\r \x{1c}-\x{1f}\x{85}\x{a0}\x{1680}\x{2000}-\x{200a}\x{2028}\x{2029}\x{202f}\x{205f}\x{3000}`
	pyWord = `\p{L}\p{N}_`
)

// The RE2 engine is linear-time, so these are safe on hostile input; the
// reference patterns are copied with \w, \d and \S spelled out. They are
// compiled on urlize's first use, not at init: httpRe's Unicode classes
// are 100 kB of compiled program, 28 kB of it pointers, which every
// collection of the host's heap would scan whether or not a template ever
// calls urlize (docs/COSTS.md, the engine's live heap).
var (
	httpRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)^(?:(?:https?://|www\.)(?:(?:[` + pyWord + `%-]+\.)+)?(?:[a-z]{2,63}|xn--[` + pyWord + `%]{2,59})` +
			`|(?:[` + pyWord + `%-]{2,63}\.)+(?:com|net|int|edu|gov|org|info|mil)` +
			`|https?://(?:(?:\p{Nd}{1,3})(?:\.\p{Nd}{1,3}){3}|\[(?:[\p{Nd}a-f]{0,4}:){2}(?:[\p{Nd}a-f]{0,4}:?){1,6}\]))` +
			`(?::\p{Nd}{1,5})?(?:[/?#][^` + pyWS + `]*)?$`)
	})
	schemeRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[` + pyWord + `.+-]{2,}:/{0,2}$`) })
)

// urlizeOpts are the resolved arguments of urlize.
type urlizeOpts struct {
	c       value.Ctx
	trim    int64
	hasTrim bool
	relAttr string
	tgtAttr string
	schemes []string
}

// regexByteCost is what matching a word against one of urlize's
// patterns charges a byte: Go's regexp simulates the automaton over the
// Unicode word classes at up to 100 ns a byte, and every word meets the
// URL pattern (a 300 KB word of '0@C' ran 10 ns a unit charged before;
// fuzz seed 3cba0652c2e44d32).
const regexByteCost = 64

// matches charges the match of re over x, then runs it.
func (o *urlizeOpts) matches(re *regexp.Regexp, x string) bool {
	o.c.Charge(budget.Mul(int64(len(x)), regexByteCost), "filter urlize")
	return re.MatchString(x)
}

// isURL is httpRe's match of x, the automaton run only on a word that
// can match it (httpCandidate): most words of a text are not URLs, and
// running Go's regexp over each at 64 units a byte refused ordinary text
// (a million e-mail addresses: redteam/cpu/urlize-emails-slow).
func (o *urlizeOpts) isURL(x string) bool {
	return httpCandidate(x) && o.matches(httpRe(), x)
}

// urlWordRune is httpRe's [\w%-] (Python's \w as \p{L}\p{N}_).
func urlWordRune(r rune) bool { return reWordRune(r) || r == '%' || r == '-' }

// reWordRune is the patterns' \w: \p{L}, \p{N} or '_'.
func reWordRune(r rune) bool {
	if r < utf8.RuneSelf {
		return r == '_' || 'a' <= r|0x20 && r|0x20 <= 'z' || '0' <= r && r <= '9'
	}
	return unicode.IsLetter(r) || unicode.IsNumber(r)
}

// httpCandidate is a necessary condition for httpRe to match x, read in
// one pass: its first two alternatives start with http://, https:// or
// www. (any case); the third is a run of [\w%.-] that ends in one of its
// top-level domains and is followed by nothing, a port or a path (':',
// '/', '?', '#'). TestURLCandidateNeverMissesAMatch holds it to httpRe.
func httpCandidate(x string) bool {
	for _, p := range [...]string{"http://", "https://", "www."} {
		if len(x) >= len(p) && strings.EqualFold(x[:len(p)], p) {
			return true
		}
	}
	e := 0
	for e < len(x) {
		r, w := utf8.DecodeRuneInString(x[e:])
		if r != '.' && !urlWordRune(r) {
			break
		}
		e += w
	}
	if e < len(x) && strings.IndexByte(":/?#", x[e]) < 0 {
		return false
	}
	host := x[:e]
	for _, tld := range [...]string{".com", ".net", ".int", ".edu", ".gov", ".org", ".info", ".mil"} {
		if len(host) >= len(tld) && strings.EqualFold(host[len(host)-len(tld):], tld) {
			return true
		}
	}
	return false
}

// isEmail is Jinja's email pattern, ^\S+@\w[\w.-]*\.\w+$, matched by
// hand in one pass (no automaton: Go's regexp ran 100 ns a byte). The
// domain holds no '@', so the '@' is the last one; the final \.\w+
// holds no '.', so it follows the last '.'. TestEmailMatchesPattern
// holds it to the pattern.
func isEmail(x string) bool {
	at := strings.LastIndexByte(x, '@')
	if at < 1 {
		return false
	}
	for i := 0; i < at; {
		// ASCII a byte at a time, a rune decoded only past it
		if b := x[i]; b < utf8.RuneSelf {
			if asciiSpace(b) {
				return false
			}
			i++
			continue
		}
		r, w := decodeRune(x, i)
		if pyIsSpace(r) {
			return false
		}
		i += w
	}
	d := x[at+1:]
	dot := strings.LastIndexByte(d, '.')
	if dot < 1 || dot == len(d)-1 {
		return false
	}
	for i := 0; i < len(d); {
		if b := d[i]; b < utf8.RuneSelf {
			if !asciiWord[b] && (i == 0 || i > dot || b != '.' && b != '-') {
				return false
			}
			i++
			continue
		}
		r, w := decodeRune(d, i)
		if !reWordRune(r) {
			return false // nor is it '.' or '-'
		}
		i += w
	}
	return true
}

func (o *urlizeOpts) trimURL(x string) string {
	if !o.hasTrim {
		return x
	}
	n := int64(strutil.RuneLen(x))
	if n <= o.trim {
		return x
	}
	// x[:limit] with Python's negative slicing
	cut := o.trim
	if cut < 0 {
		cut = max(n+cut, 0)
	}
	return runePrefix(x, int(cut)) + "..."
}

// fUrlize is Jinja's do_urlize over utils.urlize, as a hand scanner.
func fUrlize(c value.Ctx, v value.Value, args *value.Args) value.Value {
	a := bind(args, "do_urlize", "trim_url_limit", "nofollow", "target", "rel", "extra_schemes")
	o := urlizeOpts{c: c}
	if !isNoneOrMissing(a[0]) {
		o.trim, o.hasTrim = argInt("urlize", a[0], 0), true
	}
	relParts := map[string]bool{"noopener": true}
	if !isNoneOrMissing(a[3]) {
		for _, p := range strings.FieldsFunc(pyStr(c, a[3]), pyIsSpace) {
			relParts[p] = true
		}
	}
	if argBool(a[1], false) {
		relParts["nofollow"] = true
	}
	rel := ordered.Keys(relParts)
	o.relAttr = ` rel="` + value.EscapeHTML(strings.Join(rel, " ")) + `"`
	if !isNoneOrMissing(a[2]) && a[2].Truth() {
		o.tgtAttr = ` target="` + vops.EscapeStr(softStr(c, a[2])) + `"`
	}
	if !isNoneOrMissing(a[4]) {
		for _, s := range draw(c, a[4], "filter urlize") {
			str := pyStr(c, s)
			if !schemeRe().MatchString(str) {
				errs.Throwf(errs.Render, "%s is not a valid URI scheme prefix.", strutil.QuoteString(str))
			}
			//scratch:ok one string header an item of the extra_schemes list, a value the template already paid for
			o.schemes = append(vmem.Grown(o.schemes), str)
		}
	}
	var text string
	if v.IsSafe() {
		text = v.Str()
	} else {
		s := pyStr(c, v)
		chargeEscape(c, s, "filter urlize")
		text = value.EscapeHTML(s)
	}
	// An ASCII text with ASCII attributes gives an ASCII result, whose
	// count is its length (counting 37 MB of links again was a twentieth
	// of the filter); the text's count is known when it is a string.
	var ascii bool
	if v.IsString() {
		ascii = v.RuneCount() == len(v.Str())
	} else {
		ascii = strutil.RuneLen(text) == len(text)
	}
	ascii = ascii && strutil.RuneLen(o.relAttr) == len(o.relAttr) && strutil.RuneLen(o.tgtAttr) == len(o.tgtAttr)
	// Every word may become a link: twice its text plus the attributes.
	words := int64(wsSplit(text, -1, false, nil, value.EmptyString)) // the words, not the list
	per := int64(len(o.relAttr)+len(o.tgtAttr)) + 32
	bound := budget.Add(budget.Mul(3, int64(len(text))), budget.Mul(words, per))
	c.Charge(bound, "filter urlize")
	// sized once for the charged bound when every word may be a link
	// (growing from the text's size copied a text of addresses, which
	// becomes 4.6 times longer, several times over)
	var sb strutil.TextWriter // no write barrier a write (strutil.TextWriter)
	if strings.IndexByte(text, '@') >= 0 || strings.IndexByte(text, '.') >= 0 {
		sb.Grow(int(bound))
	} else {
		sb.Grow(len(text))
	}
	// the words are found a byte at a time where the text is ASCII (a
	// decode and a class call a byte were a fifth of the filter), and the
	// bytes a word's classification asks about are noted on the way
	i := 0
	for i < len(text) {
		j := i
		var f uint8
		for j < len(text) {
			if b := text[j]; b < utf8.RuneSelf {
				if asciiSpace(b) {
					break
				}
				f |= urlizeByte[b]
				j++
				continue
			}
			r, w := decodeRune(text, j)
			if pyIsSpace(r) {
				break
			}
			j += w
		}
		if j > i {
			o.word(&sb, text[i:j], f)
		}
		k := j
		for k < len(text) {
			if b := text[k]; b < utf8.RuneSelf {
				if !asciiSpace(b) {
					break
				}
				k++
				continue
			}
			r, w := decodeRune(text, k)
			if !pyIsSpace(r) {
				break
			}
			k += w
		}
		sb.WriteString(text[j:k])
		i = k
	}
	out := sb.String()
	if ascii {
		like := value.EmptyString
		if c.Autoescape() {
			like = like.MarkSafe()
		}
		return value.StringLikeCounted(like, out, len(out))
	}
	if c.Autoescape() {
		return value.Safe(out)
	}
	return value.FromString(out)
}

// The bytes of a word that urlize's classification asks about, noted
// while the word is found: an opener of a bracket pair ('(', '<', the
// '&' of "&lt;"), an '@' and a ':'. Neither the head a word's openers
// make nor the tail its closers make holds an '@' or a ':', so what the
// whole word holds of these two, its middle holds.
const (
	urlizeOpen uint8 = 1 << iota
	urlizeAt
	urlizeColon
)

var urlizeByte = [utf8.RuneSelf]uint8{'(': urlizeOpen, '<': urlizeOpen, '&': urlizeOpen, '@': urlizeAt, ':': urlizeColon}

// word urlizes one whitespace-free word; f has the urlizeByte flags of
// its bytes.
func (o *urlizeOpts) word(sb *strutil.TextWriter, middle string, f uint8) {
	head, tail := "", ""
	// head: ^([(<]|&lt;)+
	h := 0
	for h < len(middle) {
		switch {
		case middle[h] == '(' || middle[h] == '<':
			h++
			continue
		case strings.HasPrefix(middle[h:], "&lt;"):
			h += 4
			continue
		}
		break
	}
	head, middle = middle[:h], middle[h:]
	// tail: ([)>.,\n]|&gt;)+$, peeled from the end (the tokenisation of a
	// suffix is unique, so this finds the leftmost match)
	t := len(middle)
	for t > 0 {
		switch {
		case strings.HasSuffix(middle[:t], "&gt;"):
			t -= 4
			continue
		case strings.IndexByte(")>.,\n", middle[t-1]) >= 0:
			t--
			continue
		}
		break
	}
	middle, tail = middle[:t], middle[t:]
	// balance brackets by moving closers back from the tail; a word with
	// no opener (most words: "(", "<" and "&lt;" all start with one of
	// these bytes) has nothing to balance, and skips the six counts
	for _, pair := range [3][2]string{{"(", ")"}, {"<", ">"}, {"&lt;", "&gt;"}} {
		if f&urlizeOpen == 0 || !strings.ContainsAny(middle, "(<&") {
			break
		}
		open := strutil.Count(middle, pair[0])
		if open <= strutil.Count(middle, pair[1]) {
			continue
		}
		moves := strutil.Count(tail, pair[1])
		if open < moves {
			moves = open
		}
		cut := 0
		for m := 0; m < moves; m++ {
			cut += strutil.Index(tail[cut:], pair[1]) + len(pair[1])
		}
		middle += tail[:cut]
		tail = tail[cut:]
	}
	switch {
	case o.isURL(middle):
		href := middle
		if !strings.HasPrefix(middle, "https://") && !strings.HasPrefix(middle, "http://") {
			href = "https://" + middle
		}
		middle = `<a href="` + href + `"` + o.relAttr + o.tgtAttr + `>` + o.trimURL(middle) + `</a>`
	case strings.HasPrefix(middle, "mailto:") && isEmail(middle[7:]):
		// written in place: a string concatenated per word was most of
		// the work of a text of addresses
		writeAll(sb, head, `<a href="`, middle, `">`, middle[7:], `</a>`, tail)
		return
	case f&(urlizeAt|urlizeColon) == urlizeAt && !strings.HasPrefix(middle, "www.") && isEmail(middle):
		if n := len(head) + len(mailtoOpen) + 2*len(middle) + len(`"></a>`) + len(tail); n <= 256 {
			// in place: the fixed parts are stores, not copy calls
			b := sb.Next(n)
			k := copy(b, head)
			*(*[len(mailtoOpen)]byte)(b[k:]) = mailtoOpen
			k += len(mailtoOpen)
			k += copy(b[k:], middle)
			b[k], b[k+1] = '"', '>'
			k += 2 + copy(b[k+2:], middle)
			*(*[4]byte)(b[k:]) = [4]byte{'<', '/', 'a', '>'}
			copy(b[k+4:], tail)
			return
		}
		writeAll(sb, head, `<a href="mailto:`, middle, `">`, middle, `</a>`, tail)
		return
	default:
		for _, sc := range o.schemes {
			if middle != sc && strings.HasPrefix(middle, sc) {
				middle = `<a href="` + middle + `"` + o.relAttr + o.tgtAttr + `>` + middle + `</a>`
			}
		}
	}
	writeAll(sb, head, middle, tail)
}

// mailtoOpen is the start of an e-mail address's link.
var mailtoOpen = [16]byte{'<', 'a', ' ', 'h', 'r', 'e', 'f', '=', '"', 'm', 'a', 'i', 'l', 't', 'o', ':'}

// writeAll writes each of parts to sb.
func writeAll(sb *strutil.TextWriter, parts ...string) {
	for _, p := range parts {
		sb.WriteString(p)
	}
}

// urlQuote is Jinja's url_quote: UTF-8 percent-encoding keeping
// unreserved characters (and '/' outside query strings). Its result is
// ASCII, so its count is its length.
func urlQuote(s string, forQS bool) value.Value {
	var sb strutil.TextWriter
	n := urlQuotedLen(s, forQS)
	sb.Grow(n)
	quoteInto(&sb, s, forQS)
	return value.StringLikeCounted(value.EmptyString, sb.String(), n)
}

// urlKept are the bytes url_quote keeps as they are, outside a query
// string ([0]: '/' too) and in one ([1]: a space becomes '+'). Runs of
// them are copied whole and each other byte written as one escape (a
// write and a comparison chain a byte ran 2.3 ns a unit).
var urlKept = func() (t [2][256]bool) {
	for b := 0; b < 256; b++ {
		keep := 'a' <= b && b <= 'z' || 'A' <= b && b <= 'Z' || '0' <= b && b <= '9' || b == '_' || b == '.' || b == '-' || b == '~'
		t[0][b] = keep || b == '/'
		t[1][b] = keep
	}
	return t
}()

// quoteInto writes urlQuote(s, forQS) to sb.
func quoteInto(sb *strutil.TextWriter, s string, forQS bool) {
	const hexd = "0123456789ABCDEF"
	kept := &urlKept[0]
	if forQS {
		kept = &urlKept[1]
	}
	for i := 0; i < len(s); {
		start := i
		for i < len(s) && kept[s[i]] {
			i++
		}
		if i-start > 4 {
			sb.WriteString(s[start:i])
		} else {
			for ; start < i; start++ { // a short run (or none): no copy call
				sb.WriteByte(s[start])
			}
		}
		if i == len(s) {
			break
		}
		b := s[i]
		i++
		if b == ' ' && forQS {
			sb.WriteByte('+')
			continue
		}
		e := sb.Next(3) // in place, not a copy call
		e[0], e[1], e[2] = '%', hexd[b>>4], hexd[b&15]
	}
}

// urlQuotedLen is the size of urlQuote(s, forQS), so the quoting allocates
// once (the doubling allocated up to 5.6 bytes a unit charged).
func urlQuotedLen(s string, forQS bool) int {
	kept := &urlKept[0]
	if forQS {
		kept = &urlKept[1]
	}
	n := len(s)
	for i := 0; i < len(s); i++ {
		if b := s[i]; !kept[b] && (b != ' ' || !forQS) {
			n += 2
		}
	}
	return n
}

// fUrlencode is Jinja's do_urlencode: a string (or any non-iterable) is
// quoted as a path; a dict or an iterable of pairs becomes a query string.
func fUrlencode(c value.Ctx, v value.Value, args *value.Args) value.Value {
	noArgs(args, "do_urlencode")
	// a string or anything not iterable is quoted as its str()
	// (do_urlencode: isinstance(value, str) or not an Iterable)
	if v.Kind() == value.String || !isIterable(v) {
		s := pyStr(c, v)
		c.Charge(budget.Mul(int64(len(s)), 3), "filter urlencode")
		return urlQuote(s, false)
	}
	// the pairs' texts, key then value; a dict's pairs are read in place
	// (a list of them first was 96 bytes a pair)
	var strs []string
	size := 0
	add := func(k, val value.Value) {
		ks, vs := pyStr(c, k), pyStr(c, val)
		// the key and the value are each an element found (one element
		// a pair ran 2.1 ns and 1.8 bytes a unit)
		c.Charge(2*budget.Elem+budget.Mul(int64(len(ks)+len(vs)), 3), "filter urlencode")
		strs = append(strs, ks, vs)
		size += urlQuotedLen(ks, true) + urlQuotedLen(vs, true) + 2
	}
	if v.Kind() == value.Dict {
		d := v.DictData()
		strs = make([]string, 0, 2*d.Len())
		for i := 0; i < d.Len(); i++ {
			add(d.KeyAt(i), d.ValAt(i))
		}
	} else {
		items := draw(c, v, "filter urlencode")
		pairs := vmem.Fresh(make([][2]value.Value, 0, len(items)))
		for _, it := range items {
			kv := value.Iterate(c, it)
			if len(kv) != 2 {
				errs.Throwf(errs.Render, "not enough values to unpack (expected 2, got %d)", len(kv))
			}
			//scratch:ok pre-sized: made with its final capacity above, it never grows
			pairs = append(pairs, [2]value.Value{kv[0], kv[1]})
		}
		// every pair is unpacked before any is converted, as Python's
		// list of pairs is built before it is encoded
		strs = make([]string, 0, 2*len(pairs))
		for _, p := range pairs {
			add(p[0], p[1])
		}
	}
	var sb strutil.TextWriter
	sb.Grow(size)
	for i := 0; i < len(strs); i += 2 {
		if i > 0 {
			sb.WriteByte('&')
		}
		quoteInto(&sb, strs[i], true)
		sb.WriteByte('=')
		quoteInto(&sb, strs[i+1], true)
	}
	out := sb.String()
	return value.StringLikeCounted(value.EmptyString, out, len(out)) // ASCII
}
