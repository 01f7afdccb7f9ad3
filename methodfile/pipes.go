package methodfile

import (
	"encoding/json"
	"strconv"

	"github.com/jinjabox/jinjabox/method/templating"
	"github.com/jinjabox/jinjabox/workflows"
)

// commonKeys every pipe may have.
var commonKeys = []string{"type", "description", "definition", "inputs", "output", "templating_style"}

// kindKeys are the keys of each pipe kind. Model settings Pipelex passes
// to a provider as they are (seed, quality, ...) go to ModelSettings.
var kindKeys = map[string][]string{
	workflows.KindLLM:       {"prompt", "prompt_template", "system_prompt", "model", "model_to_structure", "structuring_method"},
	workflows.KindCompose:   {"template", "construct"},
	workflows.KindCondition: {"expression", "expression_template", "outcomes", "default_outcome", "add_alias_from_expression_to"},
	workflows.KindSequence:  {"steps"},
	workflows.KindBatch:     {"branch_pipe_code", "input_list_name", "input_item_name", "max_concurrency"},
	workflows.KindParallel:  {"branches", "add_each_output", "combined_output"},
	workflows.KindJudge:     {"model", "prompt", "question", "options", "levels", "criteria", "threshold", "questions"},
	workflows.KindImgGen:    {"prompt", "negative_prompt", "model", "aspect_ratio", "size", "nb_output", "seed", "output_format", "background", "quality", "is_raw", "safety_tolerance", "is_moderated"},
	workflows.KindSearch:    {"prompt", "model", "max_results", "from_date", "to_date", "include_domains", "exclude_domains", "include_images"},
	workflows.KindExtract:   {"model", "max_page_images", "page_views", "page_image_captions", "page_views_dpi"},
	workflows.KindFunc:      {"function_name"},
}

// settingKeys go to ModelSettings unchanged.
var settingKeys = map[string]bool{
	"model_to_structure": true, "structuring_method": true, "nb_output": true, "seed": true, "output_format": true,
	"background": true, "quality": true, "is_raw": true, "safety_tolerance": true, "is_moderated": true,
	"page_image_captions": true, "page_views_dpi": true,
}

// pipe converts [pipe.<code>].
func (l *loader) pipe(code string, n *tnode) {
	l.mark(code, "", n)
	if !workflows.IsSnakeCase(code) {
		l.problem(n.at, code, "", workflows.CodeInvalidPipe, "pipe code "+strconv.Quote(code)+" is not snake_case")
	}
	t := l.table(n, code, "")
	if t == nil {
		return
	}
	p := &workflows.Pipe{}
	l.m.Pipes[code] = p
	typ, ok := l.str(t.get("type"), code, "type")
	l.mark(code, "type", t.get("type"))
	if !ok {
		if t.get("type") == nil {
			l.problem(t.at, code, "type", workflows.CodeInvalidPipe, "type is required")
		}
		return
	}
	p.Type = typ
	keys, known := kindKeys[typ]
	if !known {
		l.problem(t.get("type").at, code, "type", workflows.CodeInvalidPipe, "unknown pipe type "+strconv.Quote(typ))
		return
	}
	l.known(t, code, "", append(append([]string{}, commonKeys...), keys...)...)
	p.Description = l.description(t, code)
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
	for _, k := range t.keys {
		if settingKeys[k] {
			if p.ModelSettings == nil {
				p.ModelSettings = map[string]any{}
			}
			p.ModelSettings[k] = t.kids[k].plain()
		}
	}
	if m := t.get("model"); m != nil {
		l.model(code, p, m)
	}
	switch typ {
	case workflows.KindLLM:
		l.prompt(code, t, "prompt", &p.Prompt)
		if legacy := t.get("prompt_template"); legacy != nil {
			if p.Prompt != "" {
				l.problem(legacy.at, code, "prompt", workflows.CodeInvalidPipe, "prompt_template is the old name of prompt; give one")
			}
			l.prompt(code, t, "prompt_template", &p.Prompt)
			l.mark(code, "prompt", legacy)
		}
		l.prompt(code, t, "system_prompt", &p.SystemPrompt)
	case workflows.KindImgGen:
		l.prompt(code, t, "prompt", &p.Prompt)
		l.prompt(code, t, "negative_prompt", &p.NegativePrompt)
		p.AspectRatio = l.strField(code, t, "aspect_ratio")
		if sz := t.get("size"); sz != nil && sz.kind == kInteger {
			p.Size = strconv.FormatInt(sz.val.(int64), 10)
			l.mark(code, "size", sz)
		} else {
			p.Size = l.strField(code, t, "size")
		}
	case workflows.KindSearch:
		l.prompt(code, t, "prompt", &p.Prompt)
		p.MaxResults = l.integer(t.get("max_results"), code, "max_results")
		l.mark(code, "max_results", t.get("max_results"))
		p.FromDate = l.strField(code, t, "from_date")
		p.ToDate = l.strField(code, t, "to_date")
		p.IncludeDomains = l.strList(t.get("include_domains"), code, "include_domains")
		p.ExcludeDomains = l.strList(t.get("exclude_domains"), code, "exclude_domains")
		p.IncludeImages = l.boolean(t.get("include_images"), code, "include_images")
	case workflows.KindExtract:
		p.MaxPageImages = l.integer(t.get("max_page_images"), code, "max_page_images")
		l.mark(code, "max_page_images", t.get("max_page_images"))
		p.PageViews = l.boolean(t.get("page_views"), code, "page_views")
	case workflows.KindFunc:
		p.FunctionName = l.strField(code, t, "function_name")
	case workflows.KindCompose:
		l.compose(code, p, t)
	case workflows.KindCondition:
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
	case workflows.KindSequence:
		p.Steps = l.steps(code, t, "steps", true)
	case workflows.KindParallel:
		p.Branches = l.steps(code, t, "branches", false)
		p.AddEachOutput = l.boolean(t.get("add_each_output"), code, "add_each_output")
		l.mark(code, "add_each_output", t.get("add_each_output"))
		if co := t.get("combined_output"); co != nil {
			l.mark(code, "combined_output", co)
			if s, ok := l.str(co, code, "combined_output"); ok {
				p.CombinedOutput = l.conceptRef(s, co.at, code, "combined_output")
			}
		}
	case workflows.KindBatch:
		p.BranchPipeCode = l.strField(code, t, "branch_pipe_code")
		p.InputListName = l.strField(code, t, "input_list_name")
		p.InputItemName = l.strField(code, t, "input_item_name")
		p.MaxConcurrency = l.integer(t.get("max_concurrency"), code, "max_concurrency")
		l.mark(code, "max_concurrency", t.get("max_concurrency"))
	case workflows.KindJudge:
		l.judge(code, p, t)
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
func (l *loader) model(code string, p *workflows.Pipe, n *tnode) {
	l.mark(code, "model", n)
	switch n.kind {
	case kString:
		p.Model = n.val.(string)
	case kTable:
		for _, k := range n.keys {
			switch k {
			case "model", "name":
				if p.Model != "" {
					l.problem(n.kids[k].at, code, "model", workflows.CodeInvalidPipe, "a model table names its model once (model or name)")
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
			l.problem(n.at, code, "model", workflows.CodeInvalidPipe, "a model table needs model (or name)")
		}
	default:
		l.problem(n.at, code, "model", CodeType, "model must be a reference string or a table, not "+n.kind.String())
	}
}

// steps reads steps = [{ pipe, result, batch_over?, batch_as? }] (or a
// parallel's branches, which do not batch).
func (l *loader) steps(code string, t *tnode, key string, batch bool) []workflows.Step {
	n := t.get(key)
	if n == nil {
		return nil
	}
	l.mark(code, key, n)
	if n.kind != kArray {
		l.problem(n.at, code, key, CodeType, key+" must be an array of tables, not "+n.kind.String())
		return nil
	}
	allowed := []string{"pipe", "result"}
	if batch {
		allowed = append(allowed, "batch_over", "batch_as")
	}
	var out []workflows.Step
	for i, it := range n.items {
		field := key + "[" + strconv.Itoa(i) + "]"
		l.mark(code, field, it)
		st := l.table(it, code, field)
		if st == nil {
			continue
		}
		l.known(st, code, field, allowed...)
		var s workflows.Step
		s.Pipe, _ = l.str(st.get("pipe"), code, field+".pipe")
		s.Result, _ = l.str(st.get("result"), code, field+".result")
		s.BatchOver, _ = l.str(st.get("batch_over"), code, field+".batch_over")
		s.BatchAs, _ = l.str(st.get("batch_as"), code, field+".batch_as")
		out = append(out, s)
	}
	return out
}

// compose reads template = "..." or [pipe.X.template], or
// [pipe.X.construct].
func (l *loader) compose(code string, p *workflows.Pipe, t *tnode) {
	if tn := t.get("template"); tn != nil {
		l.mark(code, "template", tn)
		switch tn.kind {
		case kString:
			p.Template = &workflows.ComposeTemplate{Template: tn.val.(string), Category: templating.Basic}
		case kTable:
			l.known(tn, code, "template", "template", "category", "templating_style", "extra_context", "strict_undefined")
			ct := &workflows.ComposeTemplate{Category: templating.Basic}
			if src := tn.get("template"); src != nil {
				l.mark(code, "template", src)
				ct.Template, _ = l.str(src, code, "template")
			} else {
				l.problem(tn.at, code, "template", workflows.CodeInvalidPipe, "a template table needs template")
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
			l.problem(tn.at, code, "template", CodeType, "template must be a string or a table, not "+tn.kind.String())
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
		var c workflows.Construct
		if err := json.Unmarshal(encodeJSON(ct.plain()), &c); err != nil {
			l.problem(cn.at, code, "construct", workflows.CodeInvalidPipe, err.Error())
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
// kind's keys, or [pipe.X.questions.<field>] tables. A lone prompt is the
// question (the older synonym).
func (l *loader) judge(code string, p *workflows.Pipe, t *tnode) {
	var prompt, question string
	l.prompt(code, t, "prompt", &prompt)
	l.prompt(code, t, "question", &question)
	qs := t.get("questions")
	if question == "" && qs == nil {
		p.Prompt = prompt
	} else {
		p.Evidence, p.Question = prompt, question
	}
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
func (l *loader) question(code, prefix string, t *tnode) workflows.JudgeQuestion {
	var q workflows.JudgeQuestion
	if o := t.get("options"); o != nil {
		l.mark(code, prefix+"options", o)
		q.Options, _ = l.strMap(o, code, prefix+"options")
	}
	if lv := t.get("levels"); lv != nil {
		l.mark(code, prefix+"levels", lv)
		if lv.kind != kArray {
			l.problem(lv.at, code, prefix+"levels", CodeType, "levels must be an array, not "+lv.kind.String())
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
					l.problem(it.at, code, field, CodeType, "a level is a string or a table with label, not "+it.kind.String())
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
