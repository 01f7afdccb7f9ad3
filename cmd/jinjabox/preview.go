package main

import (
	"context"
	"flag"
	"fmt"
	"io"

	"github.com/jinjabox/jinjabox/cmd/internal/cli"
	"github.com/jinjabox/jinjabox/method"
	"github.com/jinjabox/jinjabox/method/templating"
	"github.com/jinjabox/jinjabox/methodfile"
)

// pipelexFlags are render's flags for the Pipelex layer (--pipelex).
type pipelexFlags struct {
	category   string
	tagStyle   string
	textFormat string
	method     string
}

func (p *pipelexFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&p.category, "pipelex", "", "render with the Pipelex layer, as a template of `CATEGORY`: llm_prompt, img_gen_prompt, basic, markdown, html or mermaid; DATA is then an inputs file")
	fs.StringVar(&p.tagStyle, "tag-style", "", "with --pipelex: the tag filter's style (xml, ticks, square_brackets, no_tag; default xml)")
	fs.StringVar(&p.textFormat, "text-format", "", "with --pipelex: the format filter's format (plain, markdown, html, json; default plain)")
	fs.StringVar(&p.method, "method", "", "with --pipelex: a method file or directory whose concepts the inputs may name (the template is read in its domain)")
}

// render renders src with the Pipelex layer (method.Preview) on the
// inputs file dataArg ("" none, "-" stdin).
func (p *pipelexFlags) render(src, dataArg string, stdin io.Reader, stdout, stderr io.Writer, outPath string, noNewline bool) int {
	req := method.PreviewRequest{Template: src, Category: templating.Category(p.category)}
	if p.tagStyle != "" || p.textFormat != "" {
		st, err := templating.Style{TagStyle: templating.TagStyle(p.tagStyle), TextFormat: templating.TextFormat(p.textFormat)}.Resolved()
		if err != nil {
			fmt.Fprintln(stderr, "jinjabox:", err)
			return 2
		}
		req.Style = &st
	}
	var bundles []*method.Bundle
	if p.method != "" {
		ld, status := cli.Load([]string{p.method}, methodfile.Options{}, stderr)
		if ld == nil {
			return status
		}
		if errs := ld.Report.Errors(); len(errs) > 0 {
			cli.PrintProblems(stderr, errs)
			fmt.Fprintf(stderr, "%d problem(s)\n", len(errs))
			return 1
		}
		bundles, req.Domain = ld.Library.Bundles, ld.Targets[0].Domain
	}
	inputs := method.NewMemory()
	if dataArg != "" {
		raw, err := readData(dataArg, stdin)
		if err == nil {
			inputs, err = method.LoadInputs(raw)
		}
		if err != nil {
			fmt.Fprintln(stderr, "jinjabox:", err)
			return 2
		}
	}
	r, err := method.Preview(context.Background(), bundles, req, inputs)
	if err != nil {
		fmt.Fprintln(stderr, "jinjabox:", err)
		return 1
	}
	out := r.Text
	for i, im := range r.Images {
		out += fmt.Sprintf("\n[image %d] %s", i+1, im.URL)
	}
	if !noNewline {
		out += "\n"
	}
	if outPath != "" {
		err = cli.WriteFileAtomic(outPath, out)
	} else {
		_, err = io.WriteString(stdout, out)
	}
	if err != nil {
		fmt.Fprintln(stderr, "jinjabox:", err)
		return 2
	}
	return 0
}
