package workflows

import (
	"github.com/jinjabox/jinjabox/budget"
	"github.com/jinjabox/jinjabox/method/templating"
)

// In-workflow render bounds. Temporal fails a workflow task whose code
// does not yield for 1 s (the deadlock detector), and a render never
// yields, so every in-workflow render must finish far below that on a
// loaded worker. The numbers are measured, not guessed: the hostile
// corpus rendered through this path in the test workflow environment
// (TestHostileCorpusInWorkflow) took at most 27-36 ms per case on 2
// cores at 2 Mi units, where 4 Mi units let one case take 230 ms.
// Templates that need more belong on the activity path (RenderTemplate),
// which keeps the engine's default budget.
const (
	// InWorkflowWorkUnits bounds one render's work (about a byte read or
	// allocated per unit).
	InWorkflowWorkUnits int64 = 2 << 20
	// InWorkflowMarkdownWorkUnits bounds html renders, whose markdown
	// filter (goldmark, 2,048 units per source character: about 1,000
	// characters of Markdown fit) is the slowest code per unit; longer
	// Markdown belongs on the activity path.
	InWorkflowMarkdownWorkUnits int64 = 2 << 20
	// InWorkflowOutputBytes bounds one render's output: rendered text goes
	// into activity inputs and workflow results, which Temporal caps at
	// 2 MiB per payload.
	InWorkflowOutputBytes int64 = 256 << 10
	// InWorkflowScratchBytes bounds one render's scratch memory.
	InWorkflowScratchBytes int64 = 16 << 20
	// MaxPayloadBytes bounds a pipe's encoded output (and a run's result),
	// well under Temporal's 2 MiB blob limit, so a large batch fails with
	// a TemplateBudgetError instead of a server rejection.
	MaxPayloadBytes = 1536 << 10
)

// InWorkflowLimits are the per-render limits of a category on the
// in-workflow path.
func InWorkflowLimits(cat templating.Category) budget.Limits {
	l := budget.Limits{WorkUnits: InWorkflowWorkUnits, OutputBytes: InWorkflowOutputBytes, ScratchBytes: InWorkflowScratchBytes}
	if cat == templating.HTML {
		l.WorkUnits = InWorkflowMarkdownWorkUnits
	}
	return l
}
