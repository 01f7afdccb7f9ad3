package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"

	"github.com/jinjabox/jinjabox/workflows"
)

// cmdValidate: jinjabox validate METHOD.json — parses every template and
// path of a method bundle and prints every problem, one per line, each
// naming the pipe and the field.
func cmdValidate(args []string, stdout, stderr io.Writer) int {
	if len(args) != 1 {
		fmt.Fprintln(stderr, "usage: jinjabox validate METHOD.json")
		return 2
	}
	data, err := os.ReadFile(args[0])
	if err != nil {
		fmt.Fprintln(stderr, "jinjabox:", err)
		return 2
	}
	_, err = workflows.ValidateJSON(data)
	if err == nil {
		fmt.Fprintln(stdout, "ok")
		return 0
	}
	probs := workflows.Problems(err)
	for _, p := range probs {
		fmt.Fprintln(stdout, p.Error())
	}
	if len(probs) == 0 {
		fmt.Fprintln(stdout, err)
	}
	fmt.Fprintf(stderr, "%d problem(s)\n", max(len(probs), 1))
	return 1
}

// cmdExec: jinjabox exec METHOD.json INPUTS.json — validates the bundle,
// runs its main pipe in process with the local deterministic model
// provider, and prints the output stuff as JSON (no Temporal).
func cmdExec(args []string, stdout, stderr io.Writer) int {
	if len(args) != 2 {
		fmt.Fprintln(stderr, "usage: jinjabox exec METHOD.json INPUTS.json")
		return 2
	}
	mdata, err := os.ReadFile(args[0])
	if err != nil {
		fmt.Fprintln(stderr, "jinjabox:", err)
		return 2
	}
	idata, err := os.ReadFile(args[1])
	if err != nil {
		fmt.Fprintln(stderr, "jinjabox:", err)
		return 2
	}
	m, err := workflows.ValidateJSON(mdata)
	if err != nil {
		for _, p := range workflows.Problems(err) {
			fmt.Fprintln(stderr, p.Error())
		}
		if len(workflows.Problems(err)) == 0 {
			fmt.Fprintln(stderr, err)
		}
		return 1
	}
	mem, err := workflows.LoadInputs(idata)
	if err != nil {
		fmt.Fprintln(stderr, "jinjabox:", err)
		return 2
	}
	res, err := (&workflows.Runner{Method: m, Provider: workflows.LocalProvider{}}).Run(context.Background(), mem)
	if err != nil {
		fmt.Fprintln(stderr, "jinjabox:", err)
		return 1
	}
	enc := json.NewEncoder(stdout)
	enc.SetIndent("", "  ")
	if err := enc.Encode(res.Output); err != nil {
		fmt.Fprintln(stderr, "jinjabox:", err)
		return 1
	}
	return 0
}
