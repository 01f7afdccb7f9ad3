package workflows

// Temporal's limits, and the bounds jinjabox keeps below each so that a
// run that would reach one fails with a typed, final TemporalLimitError
// (failure.Limit) or is planned around it, instead of being terminated
// by the server or stuck on a workflow task that fails on every retry.
// The server figures are the defaults of Temporal server 1.29.1 (the
// pinned dev server), measured there (docs/temporal-scale.md).
const (
	// MaxPayloadBytes bounds one encoded payload: a child workflow's
	// input, an activity's input, a workflow's result. The server
	// terminates a workflow whose command carries a payload over 2 MiB
	// (limit.blobSize.error); 0.5 MiB is left for the envelope, headers
	// and failure details.
	MaxPayloadBytes = 1536 << 10
	// MaxStoredPayloadBytes bounds one payload stored outside the
	// history (RunOptions.StoreAbove): the server never sees it, but a
	// worker holds it in memory, encoded and decoded, and a batch's
	// outputs are one such payload (10,000 outputs of 2 KB are about
	// 25 MB).
	MaxStoredPayloadBytes = 128 << 20
	// ClaimBytes is what a stored payload weighs in a command and in the
	// history: the claim (the driver's name and a SHA-256 digest, about
	// 150 bytes encoded) with room to spare.
	ClaimBytes = 1 << 10
	// TaskPayloadBytes bounds the payload bytes of the commands of one
	// workflow task. The server refuses a task completion over 4 MiB
	// (the gRPC message limit) and the retry sends the same commands:
	// stuck forever. A command that would pass it first ends the task (a
	// 1 ms timer), so this is a split, never a failure.
	TaskPayloadBytes = 3 << 20
	// MaxHistoryBytes and MaxHistoryEvents bound one workflow's history:
	// the server terminates a workflow at 50 MiB or 51,200 events
	// (limit.historySize.error, limit.historyCount.error). A command that
	// would take the history past them fails typed; 10 MiB and 11,200
	// events stay for results in flight. Batches are planned far below
	// (batch.go).
	MaxHistoryBytes  = 40 << 20
	MaxHistoryEvents = 40000
	// eventsPerCommand is what one command may add to the history at
	// most: its initiated, started and closed events and a workflow task
	// of three.
	eventsPerCommand = 6
	// MaxReadableIDBytes bounds a readable child workflow ID
	// (<parent>/<key>); a longer one is hashed (childID). The server
	// refuses an ID over 1,000 bytes (limit.maxIDLength), and the task
	// that starts such a child fails on every retry.
	MaxReadableIDBytes = 255
	// hashedIDSuffixBytes is the hashed form's suffix: "/~" and 32 hex
	// digits of a SHA-256.
	hashedIDSuffixBytes = 2 + 32
	// MaxRootIDBytes bounds a run's workflow ID: a hashed child ID is the
	// root's plus its suffix, and must stay within the server's 1,000.
	MaxRootIDBytes = 1000 - hashedIDSuffixBytes
)

// The batch plan (batch.go): every workflow of a batch of any size stays
// far below the history bounds the issue sets (10,000 events, 10 MB).
const (
	// PageItems bounds the items of one page (a workflow running items as
	// children): at most 6 events an item.
	PageItems = 500
	// PageInputBytes bounds the sum of a page's item inputs (each item's
	// encoded input plus PlanEventBytes).
	PageInputBytes = 1536 << 10
	// RangeChildren bounds the pages (or ranges of pages) one
	// coordinator runs: about 8 events each.
	RangeChildren = 400
	// RangeInputBytes bounds the sum of a coordinator's children's
	// inputs; it always lets a range split in two, since a range's own
	// input is at most MaxPayloadBytes.
	RangeInputBytes = 2 * MaxPayloadBytes
	// PlanEventBytes is what the plan counts for the events of one child
	// beyond its input (ids, types, timestamps of its three events).
	PlanEventBytes = 1 << 10
)

// Bounds are the batch plan's bounds and the history guard's; the zero
// value is the constants above. Tests and the replay corpus set small
// ones (RunOptions.Bounds) so that a batch of a few dozen items has pages
// and ranges, and a short history reaches its bound.
type Bounds struct {
	PageItems       int   `json:"page_items,omitempty"`
	PageInputBytes  int64 `json:"page_input_bytes,omitempty"`
	RangeChildren   int   `json:"range_children,omitempty"`
	RangeInputBytes int64 `json:"range_input_bytes,omitempty"`
	HistoryBytes    int64 `json:"history_bytes,omitempty"`
	HistoryEvents   int   `json:"history_events,omitempty"`
}

// resolved is p with zero fields, and fields above the constants,
// replaced by the constants: bounds can only be lowered.
func (p *Bounds) resolved() Bounds {
	var q Bounds
	if p != nil {
		q = *p
	}
	lower := func(v, def int64) int64 {
		if v <= 0 || v > def {
			return def
		}
		return v
	}
	q.PageItems = int(lower(int64(q.PageItems), PageItems))
	q.PageInputBytes = lower(q.PageInputBytes, PageInputBytes)
	q.RangeChildren = int(lower(int64(q.RangeChildren), RangeChildren))
	if q.RangeChildren < 2 {
		q.RangeChildren = 2 // a range must split
	}
	q.RangeInputBytes = lower(q.RangeInputBytes, RangeInputBytes)
	q.HistoryBytes = lower(q.HistoryBytes, MaxHistoryBytes)
	q.HistoryEvents = int(lower(int64(q.HistoryEvents), MaxHistoryEvents))
	return q
}
