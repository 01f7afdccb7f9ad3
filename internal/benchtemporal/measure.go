package benchtemporal

import (
	"context"
	"fmt"
	"slices"
	"time"

	"go.temporal.io/api/enums/v1"
	"go.temporal.io/api/workflowservice/v1"
	"go.temporal.io/sdk/client"
)

// Workflow is one workflow execution of a run, as measured.
type Workflow struct {
	ID, RunID, Type string
	Status          enums.WorkflowExecutionStatus
	Events          int64
	Bytes           int64
}

// TypeStats summarises the workflows of one type.
type TypeStats struct {
	Type                 string
	Count                int
	SumEvents, MaxEvents int64
	SumBytes, MaxBytes   int64
	MaxEventsID          string
	MaxBytesID           string
}

// Measurement is every workflow of some runs, by type.
type Measurement struct {
	Workflows []Workflow
	Types     []*TypeStats
	// Total is over every workflow.
	Total TypeStats
}

// Measure lists every workflow whose root is one of roots (the roots
// included) once visibility holds all of them closed, and confirms the
// largest of each type with DescribeWorkflowExecution.
func Measure(ctx context.Context, c client.Client, roots []string) (*Measurement, error) {
	var all []Workflow
	for _, root := range roots {
		ws, err := ListRoot(ctx, c, root)
		if err != nil {
			return nil, err
		}
		all = append(all, ws...)
	}
	m := &Measurement{Workflows: all, Total: TypeStats{Type: "all"}}
	byType := map[string]*TypeStats{}
	for _, w := range all {
		st := byType[w.Type]
		if st == nil {
			st = &TypeStats{Type: w.Type}
			byType[w.Type] = st
			m.Types = append(m.Types, st)
		}
		for _, s := range []*TypeStats{st, &m.Total} {
			s.Count++
			s.SumEvents += w.Events
			s.SumBytes += w.Bytes
			if w.Events > s.MaxEvents {
				s.MaxEvents, s.MaxEventsID = w.Events, w.ID
			}
			if w.Bytes > s.MaxBytes {
				s.MaxBytes, s.MaxBytesID = w.Bytes, w.ID
			}
		}
	}
	slices.SortFunc(m.Types, func(a, b *TypeStats) int { return int(b.MaxBytes - a.MaxBytes) })
	// Visibility is eventually consistent: confirm each type's largest.
	for _, st := range append(m.Types, &m.Total) {
		for _, id := range []string{st.MaxEventsID, st.MaxBytesID} {
			d, err := c.DescribeWorkflow(ctx, id, "")
			if err != nil {
				return nil, fmt.Errorf("describe %s: %w", id, err)
			}
			info := d.RawResponse.GetWorkflowExecutionInfo()
			st.MaxEvents = max(st.MaxEvents, info.GetHistoryLength())
			st.MaxBytes = max(st.MaxBytes, info.GetHistorySizeBytes())
		}
	}
	return m, nil
}

// ListRoot lists the workflows of one root (the root included), waiting
// until visibility shows none running and the count is stable.
func ListRoot(ctx context.Context, c client.Client, root string) ([]Workflow, error) {
	q := fmt.Sprintf("RootWorkflowId = '%s'", root)
	prev := -1
	for {
		var out []Workflow
		running := 0
		var token []byte
		for {
			resp, err := c.ListWorkflow(ctx, &workflowservice.ListWorkflowExecutionsRequest{Query: q, PageSize: 1000, NextPageToken: token})
			if err != nil {
				return nil, err
			}
			for _, e := range resp.GetExecutions() {
				w := Workflow{ID: e.GetExecution().GetWorkflowId(), RunID: e.GetExecution().GetRunId(), Type: e.GetType().GetName(), Status: e.GetStatus(),
					Events: e.GetHistoryLength(), Bytes: e.GetHistorySizeBytes()}
				if w.Status == enums.WORKFLOW_EXECUTION_STATUS_RUNNING {
					running++
				}
				out = append(out, w)
			}
			if token = resp.GetNextPageToken(); len(token) == 0 {
				break
			}
		}
		if running == 0 && len(out) == prev && len(out) > 0 {
			return out, nil
		}
		prev = len(out)
		select {
		case <-ctx.Done():
			return nil, fmt.Errorf("listing %s: %w (%d workflows, %d running)", root, ctx.Err(), len(out), running)
		case <-time.After(time.Second):
		}
	}
}
