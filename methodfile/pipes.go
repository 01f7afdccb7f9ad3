package methodfile

import (
	"encoding/json"
	"slices"
	"strconv"
	"strings"

	"github.com/jinjabox/jinjabox/method"
	"github.com/jinjabox/jinjabox/method/templating"
)

// commonKeys every pipe may have (Pipelex's PipeBlueprint), with
// templating_style, a jinjabox extension; .plx files also take
// definition, the old name of description.
var commonKeys = []string{"type", "description", "inputs", "output", "templating_style"}

// signatureKeys are the keys of a typeless pipe, a PipeSignature
// (Pipelex's normalize_typeless_signature_section).
var signatureKeys = []string{"description", "inputs", "output", "signature_for"}

// settingKeys go to ModelSettings unchanged: what Pipelex passes to a
// provider as it is.
var settingKeys = map[string]bool{
	"model_to_structure": true, "structuring_method": true, "nb_output": true, "seed": true, "output_format": true,
	"background": true, "quality": true, "is_raw": true, "safety_tolerance": true, "is_moderated": true,
	"page_image_captions": true, "page_views_dpi": true,
}

// decoders read each kind's own keys, by kind (the kinds' keys are in
// method.Kinds).
var decoders = map[string]func(l *loader, code string, p *method.Pipe, t *tnode){
	method.KindLLM: func(l *loader, code string, p *method.Pipe, t *tnode) {
		l.prompt(code, t, "prompt", &p.Prompt)
		if legacy := t.get("prompt_template"); legacy != nil {
			if p.Prompt != "" {
				l.problem(legacy.at, code, "prompt", method.CodeInvalidPipe, "prompt_template is the old name of prompt; give one")
			}
			l.prompt(code, t, "prompt_template", &p.Prompt)
			l.mark(code, "prompt", legacy)
		}
		l.prompt(code, t, "system_prompt", &p.SystemPrompt)
	},
	method.KindImgGen: func(l *loader, code string, p *method.Pipe, t *tnode) {
		l.prompt(code, t, "prompt", &p.Prompt)
		l.prompt(code, t, "negative_prompt", &p.NegativePrompt)
		p.AspectRatio = l.strField(code, t, "aspect_ratio")
		if sz := t.get("size"); sz != nil && sz.kind == kInteger {
			p.Size = strconv.FormatInt(sz.val.(int64), 10)
			l.mark(code, "size", sz)
		} else {
			p.Size = l.strField(code, t, "size")
		}
	},
	method.KindSearch: func(l *loader, code string, p *method.Pipe, t *tnode) {
		l.prompt(code, t, "prompt", &p.Prompt)
		p.MaxResults = l.integer(t.get("max_results"), code, "max_results")
		l.mark(code, "max_results", t.get("max_results"))
		p.FromDate = l.strField(code, t, "from_date")
		p.ToDate = l.strField(code, t, "to_date")
		p.IncludeDomains = l.strList(t.get("include_domains"), code, "include_domains")
		p.ExcludeDomains = l.strList(t.get("exclude_domains"), code, "exclude_domains")
		p.IncludeImages = l.boolean(t.get("include_images"), code, "include_images")
	},
	method.KindExtract: func(l *loader, code string, p *method.Pipe, t *tnode) {
		p.MaxPageImages = l.integer(t.get("max_page_images"), code, "max_page_images")
		l.mark(code, "max_page_images", t.get("max_page_images"))
		p.PageViews = l.boolean(t.get("page_views"), code, "page_views")
	},
	method.KindFunc: func(l *loader, code string, p *method.Pipe, t *tnode) {
		p.FunctionName = l.strField(code, t, "function_name")
	},
	method.KindCompose: func(l *loader, code string, p *method.Pipe, t *tnode) { l.compose(code, p, t) },
	method.KindCondition: func(l *loader, code string, p *method.Pipe, t *tnode) {
		l.prompt(code, t, "expression", &p.Expression)
		l.prompt(code, t, "expression_template", &p.ExpressionTemplate)
		if o := t.get("outcomes"); o != nil {
			l.mark(code, "outcomes", o)
			p.Outcomes, _ = l.strMap(o, code, "outcomes")
			if ot := l.table(o, "", ""); ot != nil {
				for _, k := range ot.keys {
					l.mark(code, "outcomes["+strconv.Quote(k)+"]", ot.kids[k])
				}
			}
		}
		p.DefaultOutcome = l.strField(code, t, "default_outcome")
		p.AddAliasFromExpressionTo = l.strField(code, t, "add_alias_from_expression_to")
	},
	method.KindSequence: func(l *loader, code string, p *method.Pipe, t *tnode) {
		p.Steps = l.steps(code, t, "steps")
	},
	method.KindParallel: func(l *loader, code string, p *method.Pipe, t *tnode) {
		p.Branches = l.steps(code, t, "branches")
		p.AddEachOutput = l.boolean(t.get("add_each_output"), code, "add_each_output")
		l.mark(code, "add_each_output", t.get("add_each_output"))
	},
	method.KindBatch: func(l *loader, code string, p *method.Pipe, t *tnode) {
		p.BranchPipeCode = l.strField(code, t, "branch_pipe_code")
		p.InputListName = l.strField(code, t, "input_list_name")
		p.InputItemName = l.strField(code, t, "input_item_name")
		p.MaxConcurrency = l.integer(t.get("max_concurrency"), code, "max_concurrency")
		l.mark(code, "max_concurrency", t.get("max_concurrency"))
	},
	method.KindJudge: func(l *loader, code string, p *method.Pipe, t *tnode) { l.judge(code, p, t) },
}

// pipe converts [pipe.<code>].
func (l *loader) pipe(code string, n *tnode) {
	l.mark(code, "", n)
	if !method.IsSnakeCase(code) || strings.Contains(code, ".") {
		msg := "pipe code " + strconv.Quote(code) + " is not snake_case"
		if d, c := method.SplitPipeRef(code); d == l.m.Domain && method.IsSnakeCase(c) {
			msg = "pipe code " + strconv.Quote(code) + " carries its own domain: write " + strconv.Quote(c)
		}
		l.problem(n.at, code, "", method.CodeInvalidPipe, msg)
	}
	t := l.table(n, code, "")
	if t == nil {
		return
	}
	p := &method.Pipe{}
	l.m.Pipes[code] = p
	l.mark(code, "type", t.get("type"))
	if t.get("type") == nil {
		l.signature(code, p, t)
		return
	}
	typ, ok := l.str(t.get("type"), code, "type")
	if !ok {
		return
	}
	p.Type = typ
	k, known := method.KindOf(typ)
	if !known {
		msg := "unknown pipe type " + strconv.Quote(typ)
		if typ == method.KindSignature {
			msg = "PipeSignature is no longer a pipe type: leave type out to declare a signature"
		}
		l.problem(t.get("type").at, code, "type", method.CodeInvalidPipe, msg)
		return
	}
	keys := append(append([]string{}, commonKeys...), k.Keys...)
	if l.legacy {
		keys = append(keys, "definition")
	}
	l.known(t, code, "", keys...)
	l.common(code, p, t)
	for _, key := range t.keys {
		if settingKeys[key] {
			if p.ModelSettings == nil {
				p.ModelSettings = map[string]any{}
			}
			p.ModelSettings[key] = t.kids[key].plain()
		}
	}
	if m := t.get("model"); m != nil {
		l.model(code, p, m)
	}
	if dec := decoders[typ]; dec != nil {
		dec(l, code, p, t)
	}
}

// common reads the keys every pipe has; description and output are
// required (PipeBlueprint's fields without a default).
func (l *loader) common(code string, p *method.Pipe, t *tnode) {
	p.Description = l.description(t, code)
	if t.get("description") == nil && t.get("definition") == nil {
		l.problem(t.at, code, "description", method.CodeInvalidPipe, "description is required")
	}
	if t.get("output") == nil {
		l.problem(t.at, code, "output", method.CodeInvalidPipe, "output is required")
	}
	if in := t.get("inputs"); in != nil {
		l.mark(code, "inputs", in)
		specs, order := l.strMap(in, code, "inputs")
		p.Inputs = map[string]string{}
		for _, name := range order {
			if s, ok := specs[name]; ok {
				p.Inputs[name] = l.conceptRef(s, in.get(name).at, code, "inputs")
			}
		}
	}
	if o := t.get("output"); o != nil {
		l.mark(code, "output", o)
		if s, ok := l.str(o, code, "output"); ok {
			p.Output = l.conceptRef(s, o.at, code, "output")
		}
	}
	if ts := t.get("templating_style"); ts != nil {
		l.mark(code, "templating_style", ts)
		p.TemplatingStyle = l.style(ts, code, "templating_style")
	}
}

// signature reads a typeless pipe: a PipeSignature, a contract (inputs,
// output) without a body. Any other key is a problem: Pipelex refuses a
// typeless section that declares a body.
func (l *loader) signature(code string, p *method.Pipe, t *tnode) {
	for _, k := range t.keys {
		if !slices.Contains(signatureKeys, k) {
			l.problem(t.kids[k].at, code, k, method.CodeInvalidPipe, "pipe has no type but declares "+strconv.Quote(k)+": give its type, or keep only "+strings.Join(signatureKeys, ", ")+" for a signature")
		}
	}
	l.common(code, p, t)
	if sf := t.get("signature_for"); sf != nil {
		l.mark(code, "signature_for", sf)
		_, _ = l.str(sf, code, "signature_for")
	}
}

// strField reads an optional string key and records its position.
func (l *loader) strField(code string, t *tnode, key string) string {
	n := t.get(key)
	l.mark(code, key, n)
	s, _ := l.str(n, code, key)
	return s
}

// prompt reads an optional template key into dst.
func (l *loader) prompt(code string, t *tnode, key string, dst *string) {
	n := t.get(key)
	if n == nil {
		return
	}
	l.mark(code, key, n)
	if s, ok := l.str(n, code, key); ok {
		*dst = s
	}
}

// model reads model = "ref" or model = { model = "ref", ...settings }.
func (l *loader) model(code string, p *method.Pipe, n *tnode) {
	l.mark(code, "model", n)
	switch n.kind {
	case kString:
		p.Model = n.val.(string)
	case kTable:
		for _, k := range n.keys {
			switch k {
			case "model", "name":
				if p.Model != "" {
					l.problem(n.kids[k].at, code, "model", method.CodeInvalidPipe, "a model table names its model once (model or name)")
				}
				p.Model, _ = l.str(n.kids[k], code, "model."+k)
			default:
				if p.ModelSettings == nil {
					p.ModelSettings = map[string]any{}
				}
				p.ModelSettings[k] = n.kids[k].plain()
			}
		}
		if p.Model == "" {
			l.problem(n.at, code, "model", method.CodeInvalidPipe, "a model table needs model (or name)")
		}
	default:
		l.problem(n.at, code, "model", method.CodeType, "model must be a reference string or a table, not "+n.kind.String())
	}
}

// steps reads steps = [{ pipe, result, batch_over?, batch_as?,
// nb_output?, multiple_output? }], or a parallel's branches.
func (l *loader) steps(code string, t *tnode, key string) []method.Step {
	n := t.get(key)
	if n == nil {
		return nil
	}
	l.mark(code, key, n)
	if n.kind != kArray {
		l.problem(n.at, code, key, method.CodeType, key+" must be an array of tables, not "+n.kind.String())
		return nil
	}
	// Pipelex's SubPipeBlueprint keys.
	allowed := []string{"pipe", "result", "nb_output", "multiple_output", "batch_over", "batch_as"}
	var out []method.Step
	for i, it := range n.items {
		field := key + "[" + strconv.Itoa(i) + "]"
		l.mark(code, field, it)
		st := l.table(it, code, field)
		if st == nil {
			continue
		}
		l.known(st, code, field, allowed...)
		var s method.Step
		s.Pipe, _ = l.str(st.get("pipe"), code, field+".pipe")
		s.Result, _ = l.str(st.get("result"), code, field+".result")
		s.BatchOver, _ = l.str(st.get("batch_over"), code, field+".batch_over")
		s.BatchAs, _ = l.str(st.get("batch_as"), code, field+".batch_as")
		s.NbOutput = l.integer(st.get("nb_output"), code, field+".nb_output")
		s.MultipleOutput = l.boolean(st.get("multiple_output"), code, field+".multiple_output")
		out = append(out, s)
	}
	return out
}

// compose reads template = "..." or [pipe.X.template], or
// [pipe.X.construct].
func (l *loader) compose(code string, p *method.Pipe, t *tnode) {
	if tn := t.get("template"); tn != nil {
		l.mark(code, "template", tn)
		switch tn.kind {
		case kString:
			p.Template = &method.ComposeTemplate{Template: tn.val.(string), Category: templating.Basic}
		case kTable:
			l.known(tn, code, "template", "template", "category", "templating_style", "extra_context", "strict_undefined")
			ct := &method.ComposeTemplate{Category: templating.Basic}
			if src := tn.get("template"); src != nil {
				l.mark(code, "template", src)
				ct.Template, _ = l.str(src, code, "template")
			} else {
				l.problem(tn.at, code, "template", method.CodeInvalidPipe, "a template table needs template")
			}
			if c, ok := l.str(tn.get("category"), code, "template.category"); ok {
				ct.Category = templating.Category(c)
			}
			if ts := tn.get("templating_style"); ts != nil {
				ct.TemplatingStyle = l.style(ts, code, "templating_style")
			}
			if ec := tn.get("extra_context"); ec != nil {
				if et := l.table(ec, code, "template.extra_context"); et != nil {
					ct.ExtraContext = map[string]any{}
					for _, k := range et.keys {
						ct.ExtraContext[k] = et.kids[k].plain()
					}
				}
			}
			ct.StrictUndefined = l.boolean(tn.get("strict_undefined"), code, "template.strict_undefined")
			p.Template = ct
		default:
			l.problem(tn.at, code, "template", method.CodeType, "template must be a string or a table, not "+tn.kind.String())
		}
	}
	if cn := t.get("construct"); cn != nil {
		l.mark(code, "construct", cn)
		ct := l.table(cn, code, "construct")
		if ct == nil {
			return
		}
		l.markConstruct(code, ct, "")
		// The workflows model classifies the fields (fixed, from,
		// template, nested) with the rules of the JSON bundle, from the
		// same ordered data.
		var c method.Construct
		if err := json.Unmarshal(encodeJSON(ct.plain()), &c); err != nil {
			l.problem(cn.at, code, "construct", method.CodeInvalidPipe, err.Error())
			return
		}
		p.Construct = &c
	}
}

// markConstruct records the position of every construct field, named as
// validation names them ("construct field 'a.b'").
func (l *loader) markConstruct(code string, t *tnode, prefix string) {
	for _, k := range t.keys {
		n := t.kids[k]
		path := prefix + k
		field := "construct field '" + path + "'"
		l.mark(code, field, n)
		if n.kind != kTable {
			continue
		}
		if tpl := n.get("template"); tpl != nil {
			l.mark(code, field, tpl) // template problems are positioned in its text
			continue
		}
		if n.get("from") == nil {
			l.markConstruct(code, n, path+".")
		}
	}
}

// judge reads a PipeJudge: prompt (the evidence), then question with its
// kind's keys, or [pipe.X.questions.<field>] tables.
func (l *loader) judge(code string, p *method.Pipe, t *tnode) {
	l.prompt(code, t, "prompt", &p.Prompt)
	l.prompt(code, t, "question", &p.Question)
	qs := t.get("questions")
	q := l.question(code, "", t)
	p.Options, p.Levels, p.Criteria, p.Threshold = q.Options, q.Levels, q.Criteria, q.Threshold
	if qs == nil {
		return
	}
	l.mark(code, "questions", qs)
	qt := l.table(qs, code, "questions")
	if qt == nil {
		return
	}
	for _, field := range qt.keys {
		n := qt.kids[field]
		prefix := "questions." + field + "."
		l.mark(code, "questions."+field, n)
		tt := l.table(n, code, "questions."+field)
		if tt == nil {
			continue
		}
		l.known(tt, code, "questions."+field, "question", "options", "levels", "criteria", "threshold")
		jq := l.question(code, prefix, tt)
		jq.Field = field
		l.prompt(code, tt, "question", &jq.Question)
		l.mark(code, prefix+"question", tt.get("question"))
		p.Questions = append(p.Questions, jq)
	}
}

// question reads options, levels, criteria and threshold of a question.
func (l *loader) question(code, prefix string, t *tnode) method.JudgeQuestion {
	var q method.JudgeQuestion
	if o := t.get("options"); o != nil {
		l.mark(code, prefix+"options", o)
		q.Options, _ = l.strMap(o, code, prefix+"options")
	}
	if lv := t.get("levels"); lv != nil {
		l.mark(code, prefix+"levels", lv)
		if lv.kind != kArray {
			l.problem(lv.at, code, prefix+"levels", method.CodeType, "levels must be an array, not "+lv.kind.String())
		} else {
			for i, it := range lv.items {
				field := prefix + "levels[" + strconv.Itoa(i) + "]"
				switch it.kind {
				case kString:
					q.Levels = append(q.Levels, it.val.(string))
				case kTable:
					// { label = "...", description = "..." }: the label is
					// what the verdict names.
					l.known(it, code, field, "label", "description")
					s, _ := l.str(it.get("label"), code, field+".label")
					q.Levels = append(q.Levels, s)
				default:
					l.problem(it.at, code, field, method.CodeType, "a level is a string or a table with label, not "+it.kind.String())
				}
			}
		}
	}
	if c := t.get("criteria"); c != nil {
		l.mark(code, prefix+"criteria", c)
		q.Criteria, _ = l.strMap(c, code, prefix+"criteria")
	}
	if th := t.get("threshold"); th != nil {
		l.mark(code, prefix+"threshold", th)
		q.Threshold = l.number(th, code, prefix+"threshold")
	}
	return q
}
