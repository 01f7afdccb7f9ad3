package templating

import (
	"unicode/utf8"

	"bytes"
	"github.com/jinjabox/jinjabox/engine"
	"strings"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	extast "github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/renderer"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"

	"github.com/jinjabox/jinjabox/budget"
	"github.com/jinjabox/jinjabox/engine/value"
)

// Markdown conversion is the one filter whose cost is far from linear in
// its output, so it is charged by its input before parsing (2,048 units a
// source character and a table cell, Pipelex's scale), and the rendered
// size is bounded from the syntax tree and afforded before rendering.

const markdownOp = "converting Markdown to HTML"

// maxMarkdownDepth caps the syntax-tree nesting (Pipelex caps inline
// nesting at 50; block nesting adds a little).
const maxMarkdownDepth = 100

// markdownFilter is value|markdown: Markdown to HTML (CommonMark, tables,
// strikethrough; raw HTML escaped, never passed through), as markup.
func markdownFilter(c value.Ctx, v value.Value, args *value.Args) (value.Value, error) {
	if args.Len() != 0 {
		return value.Value{}, engine.NewError(engine.KindType, "markdown() takes no arguments")
	}
	if v.IsUndefined() {
		if c.Strict() {
			return value.Value{}, engine.UndefinedError(v)
		}
		return value.Safe(""), nil
	}
	chargeSize(c, v, 1, markdownOp)
	src := value.ToString(v)
	out := ConvertMarkdown(c, src)
	return value.Safe(out), nil
}

// ConvertMarkdown converts src to HTML under c's budget. When the budget
// cannot afford it, it ends the render with the budget error
// (engine.Fail), as the value model's own charges do.
func ConvertMarkdown(c value.Ctx, src string) string {
	n := int64(utf8.RuneCountInString(src))
	charge(c, budget.Mul(n, budget.MarkdownChar), markdownOp)
	charge(c, budget.Mul(TableCellsBound(src), budget.MarkdownChar), markdownOp)
	// goldmark's block parser is quadratic in container nesting, so a
	// line opening more containers than the tree may hold is refused
	// before parsing rather than after.
	if d := maxLineContainers(src); d > maxMarkdownDepth {
		engine.Fail(&budget.Error{Limit: budget.LimitNestingDepth, Phase: c.Meter().Phase, Op: markdownOp,
			Configured: maxMarkdownDepth, Observed: int64(d)})
	}
	// Inline link destinations are rescanned from every "](" (goldmark
	// is quadratic on unclosed runs of them): charge that scan up front.
	charge(c, budget.Mul(LinkScanBound(src), linkScanUnits), markdownOp)
	md := newMarkdown()
	source := []byte(src)
	doc := md.Parser().Parse(text.NewReader(source))
	bound, depth := htmlLengthBound(doc, source)
	if depth > maxMarkdownDepth {
		engine.Fail(&budget.Error{Limit: budget.LimitNestingDepth, Phase: c.Meter().Phase, Op: markdownOp,
			Configured: maxMarkdownDepth, Observed: depth})
	}
	charge(c, bound, markdownOp)
	var buf bytes.Buffer
	buf.Grow(int(min(bound, int64(len(src))*4+64)))
	if err := md.Renderer().Render(&buf, source, doc); err != nil {
		fail(engine.KindRender, "markdown conversion failed")
	}
	return buf.String()
}

// newMarkdown builds a converter for one call: nothing is shared between
// renders.
func newMarkdown() goldmark.Markdown {
	return goldmark.New(
		goldmark.WithExtensions(extension.Table, extension.Strikethrough),
		goldmark.WithRendererOptions(renderer.WithNodeRenderers(util.Prioritized(rawHTMLEscaper{}, 100))),
	)
}

// rawHTMLEscaper renders raw HTML (inline and blocks) as escaped text, so
// untrusted Markdown can never inject markup.
type rawHTMLEscaper struct{}

// RegisterFuncs implements renderer.NodeRenderer.
func (rawHTMLEscaper) RegisterFuncs(reg renderer.NodeRendererFuncRegisterer) {
	reg.Register(ast.KindRawHTML, func(w util.BufWriter, source []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
		if entering {
			segs := node.(*ast.RawHTML).Segments
			for i := 0; i < segs.Len(); i++ {
				seg := segs.At(i)
				_, _ = w.WriteString(value.EscapeHTML(string(seg.Value(source))))
			}
		}
		return ast.WalkSkipChildren, nil
	})
	reg.Register(ast.KindHTMLBlock, func(w util.BufWriter, source []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
		n := node.(*ast.HTMLBlock)
		if entering {
			var sb strings.Builder
			lines := n.Lines()
			for i := 0; i < lines.Len(); i++ {
				line := lines.At(i)
				sb.Write(line.Value(source))
			}
			if n.HasClosure() {
				sb.Write(n.ClosureLine.Value(source))
			}
			_, _ = w.WriteString("<p>" + value.EscapeHTML(strings.TrimRight(sb.String(), "\n")) + "</p>\n")
		}
		return ast.WalkSkipChildren, nil
	})
}

// htmlLengthBound bounds the rendered size of doc (6 times every piece of
// source text a node prints, since escaping can expand it, plus a fixed
// overhead per node) and measures its depth. It walks iteratively so a
// deep tree cannot exhaust the stack here.
func htmlLengthBound(doc ast.Node, source []byte) (bound, maxDepth int64) {
	const perNode, esc = 48, budget.EscapeFactor
	var depth int64
	n := doc
	for n != nil {
		bound += perNode
		switch t := n.(type) {
		case *ast.Text:
			bound += esc * int64(t.Segment.Len())
		case *ast.String:
			bound += esc * int64(len(t.Value))
		case *ast.Link:
			bound += esc * int64(len(t.Destination)+len(t.Title))
		case *ast.Image:
			bound += esc * int64(len(t.Destination)+len(t.Title)) * 2
		case *ast.AutoLink:
			bound += esc * 2 * int64(len(t.URL(source)))
		case *ast.RawHTML:
			for i := 0; i < t.Segments.Len(); i++ {
				seg := t.Segments.At(i)
				bound += esc * int64(seg.Len())
			}
		case *extast.TableCell:
			bound += 32
		}
		if n.Type() == ast.TypeBlock {
			lines := n.Lines()
			for i := 0; i < lines.Len(); i++ {
				line := lines.At(i)
				bound += esc * int64(line.Len())
			}
		}
		if depth > maxDepth {
			maxDepth = depth
		}
		// Iterative pre-order step.
		if fc := n.FirstChild(); fc != nil {
			n = fc
			depth++
			continue
		}
		for n != nil && n != doc && n.NextSibling() == nil {
			n = n.Parent()
			depth--
		}
		if n == nil || n == doc {
			break
		}
		n = n.NextSibling()
	}
	return bound, maxDepth
}

// TableCellsBound bounds the number of table cells the table extension
// can build, as Pipelex's table_cells_bound does: for every delimiter row,
// its column count times the rows up to the next blank line (the table
// rule pads short rows to the header width). One linear pass bottom-up.
func TableCellsBound(src string) int64 {
	lines := strings.Split(src, "\n")
	var cells int64
	nextBlank := len(lines) // index of the next blank line below i
	for i := len(lines) - 1; i >= 0; i-- {
		line := lines[i]
		if strings.TrimSpace(line) == "" {
			nextBlank = i
			continue
		}
		if i > 0 && isDelimiterRow(line) {
			cols := int64(strings.Count(line, "|") + 1)
			rows := int64(nextBlank - i + 1) // header and body rows
			cells = budget.Add(cells, budget.Mul(cols, rows))
		}
	}
	return cells
}

// isDelimiterRow reports whether line looks like a table delimiter row
// (pipes, dashes, colons and spaces only, with at least one dash).
func isDelimiterRow(line string) bool {
	dash := false
	for i := 0; i < len(line); i++ {
		switch line[i] {
		case '-':
			dash = true
		case '|', ':', ' ', '\t', '\r':
		default:
			return false
		}
	}
	return dash
}

// maxLineContainers returns the most block containers (block quote ">"
// and list markers "-", "*", "+", "1." or "1)" each followed by a space)
// any one line opens at its start. Linear.
func maxLineContainers(src string) int {
	best := 0
	for len(src) > 0 {
		line := src
		if i := strings.IndexByte(src, '\n'); i >= 0 {
			line, src = src[:i], src[i+1:]
		} else {
			src = ""
		}
		d, i := 0, 0
		for i < len(line) {
			for i < len(line) && (line[i] == ' ' || line[i] == '\t') {
				i++
			}
			if i >= len(line) {
				break
			}
			switch ch := line[i]; {
			case ch == '>':
				d++
				i++
				continue
			case ch == '-' || ch == '*' || ch == '+':
				if i+1 < len(line) && (line[i+1] == ' ' || line[i+1] == '\t') {
					d++
					i += 2
					continue
				}
			case ch >= '0' && ch <= '9':
				j := i
				for j < len(line) && j-i < 9 && line[j] >= '0' && line[j] <= '9' {
					j++
				}
				if j+1 < len(line) && (line[j] == '.' || line[j] == ')') && (line[j+1] == ' ' || line[j+1] == '\t') {
					d++
					i = j + 2
					continue
				}
			}
			break
		}
		best = max(best, d)
	}
	return best
}

// linkScanUnits is charged per byte goldmark may scan for a link
// destination (about 5 ns a byte measured, so a few units).
const linkScanUnits = 4

// LinkScanBound bounds the bytes goldmark scans looking for inline link
// destinations: from every "](", up to the next whitespace (a plain
// destination cannot contain one) or, for "<...>", up to the next ">" or
// line end. One backward pass, no allocation.
func LinkScanBound(src string) int64 {
	var total int64
	nextWS, nextGT := len(src), len(src)
	for i := len(src) - 1; i >= 0; i-- {
		switch src[i] {
		case ' ', '\t', '\n', '\r', '\f', '\v':
			nextWS = i
			if src[i] == '\n' {
				nextGT = i
			}
		case '>':
			nextGT = i
		case ']':
			if i+1 < len(src) && src[i+1] == '(' {
				if i+2 < len(src) && src[i+2] == '<' {
					total += int64(nextGT - i)
				} else {
					total += int64(nextWS - i)
				}
			}
		}
	}
	return total
}
