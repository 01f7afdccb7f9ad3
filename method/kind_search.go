package method

import (
	"strconv"
	"time"

	"github.com/jinjabox/jinjabox/method/templating"
)

// PipeSearch: a query rendered in the basic category, sent to a web
// search model; the output is the answer.

// SearchFields are PipeSearch's own fields (dates are YYYY-MM-DD).
type SearchFields struct {
	MaxResults     int      `json:"max_results,omitempty"`
	FromDate       string   `json:"from_date,omitempty"`
	ToDate         string   `json:"to_date,omitempty"`
	IncludeDomains []string `json:"include_domains,omitempty"`
	ExcludeDomains []string `json:"exclude_domains,omitempty"`
	IncludeImages  bool     `json:"include_images,omitempty"`
}

var kindSearch = &Kind{
	Name:   KindSearch,
	Model:  true,
	Prompt: true,
	Keys:   []string{"prompt", "model", "max_results", "from_date", "to_date", "include_domains", "exclude_domains", "include_images"},
	fields: func(p *Pipe) []string {
		var s set
		s.add("max_results", p.MaxResults != 0)
		s.add("from_date", p.FromDate != "")
		s.add("to_date", p.ToDate != "")
		s.add("include_domains", len(p.IncludeDomains) > 0)
		s.add("exclude_domains", len(p.ExcludeDomains) > 0)
		s.add("include_images", p.IncludeImages)
		return s
	},
	check: checkSearch,
	run:   runSearch,
}

func checkSearch(c *pipeCheck) {
	p := c.p
	for _, d := range []struct{ field, val string }{{"from_date", p.FromDate}, {"to_date", p.ToDate}} {
		if d.val != "" && !isISODate(d.val) {
			c.add(d.field, CodeInvalidPipe, "dates are YYYY-MM-DD, not "+strconv.Quote(d.val))
		}
	}
	if p.Prompt == "" {
		c.add("prompt", CodeInvalidPipe, "prompt is required")
		return
	}
	if p.MaxResults < 0 {
		c.add("max_results", CodeInvalidPipe, "max_results must not be negative")
	}
	info := c.checkTemplate(tmplField{field: "prompt", src: p.Prompt, cat: templating.Basic, sigils: true})
	u := used{}
	u.addFacts(info)
	c.requireAllUsed(u, info == nil)
	// Any output concept is allowed, as in Pipelex (PipeSearchFactory.make):
	// a SearchResult (or a concept refining it) is the sourced answer, any
	// other concept a structured answer.
}

// isISODate reports whether s is a calendar date written YYYY-MM-DD, as
// Pipelex's PipeSearchBlueprint.validate_date_format checks it with
// date.fromisoformat: 2024-02-30 and year 0 are refused. Python 3.11's
// fromisoformat also reads 20240101 and 2024-W01-1; jinjabox takes only
// the form Pipelex's message asks for, which every Python reads alike.
func isISODate(s string) bool {
	if len(s) != 10 {
		return false
	}
	d, err := time.Parse(time.DateOnly, s)
	return err == nil && d.Year() > 0
}

func runSearch(x *invocation) (*Stuff, []Stuff, error) {
	p := x.p
	q, err := x.render("prompt", templating.Basic, x.style(nil), p.Prompt, true, nil)
	if err != nil {
		return nil, nil, err
	}
	req := x.request(RequestSearch, ConceptSearchResult)
	req.Prompt, req.MaxResults = q, p.MaxResults
	if err := x.decorate(&req); err != nil {
		return nil, nil, err
	}
	req.FromDate, req.ToDate = p.FromDate, p.ToDate
	req.IncludeDomains, req.ExcludeDomains, req.IncludeImages = p.IncludeDomains, p.ExcludeDomains, p.IncludeImages
	// An output that is not a SearchResult is a structured answer
	// (Pipelex's is_structured_output): the provider gets its fields.
	structured := x.concepts().Base(ParseConceptSpec(req.Output).Name) != ConceptSearchResult
	if structured {
		req.Fields = x.fields(req.Output)
	}
	resp, err := x.call(req)
	if err != nil {
		return nil, nil, err
	}
	if !structured {
		req.Fields = x.fields(req.Output) // after the call: the request stays as it was
	}
	out, err := x.answer(req, resp)
	return out, nil, err
}
