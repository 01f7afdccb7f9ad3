package syntax

// lexAll tokenizes a whole source (normalising it first) for tests and
// fuzzing; it returns the tokens before EOF or the lexing error.
func lexAll(src string, opts Options) (toks []token, lerr *lexError) {
	return lexAllWith(src, opts, nil)
}

// lexAllWith is lexAll with the lexer set up by adjust (nil: as made).
func lexAllWith(src string, opts Options, adjust func(*lexer)) (toks []token, lerr *lexError) {
	norm, _ := normalize(src, opts.KeepTrailingNewline)
	lx := newLexer(norm, opts)
	if adjust != nil {
		adjust(lx)
	}
	defer func() {
		if r := recover(); r != nil {
			e, ok := r.(*lexError)
			if !ok {
				panic(r)
			}
			lerr = e
		}
	}()
	for {
		t := lx.next()
		if t.typ == tEOF {
			return toks, nil
		}
		toks = append(toks, t)
	}
}

// jinjaTypeName is the token type name jinja2.lexer uses.
func jinjaTypeName(t tokType) string {
	switch t {
	case tData:
		return "data"
	case tVarBegin:
		return "variable_begin"
	case tVarEnd:
		return "variable_end"
	case tBlockBegin:
		return "block_begin"
	case tBlockEnd:
		return "block_end"
	case tName:
		return "name"
	case tString:
		return "string"
	case tInt:
		return "integer"
	case tFloat:
		return "float"
	case tEOF:
		return "eof"
	}
	return opNames[t]
}

var opNames = map[tokType]string{
	tAdd: "add", tSub: "sub", tDiv: "div", tFloorDiv: "floordiv", tMul: "mul", tMod: "mod",
	tPow: "pow", tTilde: "tilde", tLBracket: "lbracket", tRBracket: "rbracket", tLParen: "lparen",
	tRParen: "rparen", tLBrace: "lbrace", tRBrace: "rbrace", tEq: "eq", tNe: "ne", tGt: "gt",
	tGtEq: "gteq", tLt: "lt", tLtEq: "lteq", tAssign: "assign", tDot: "dot", tColon: "colon",
	tPipe: "pipe", tComma: "comma", tSemicolon: "semicolon",
}
