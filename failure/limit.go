package failure

import (
	"strconv"

	"go.temporal.io/sdk/temporal"
)

// The bounds a TemporalLimitError names (Details.Limit).
const (
	// LimitPayloadBytes: one payload (a child workflow's input, an
	// activity's input, a workflow's result), encoded, over the bound kept
	// below the server's 2 MiB blob limit.
	LimitPayloadBytes = "payload_bytes"
	// LimitBatchOutputBytes: a batch's list of outputs, one payload,
	// passed the bound at Item.
	LimitBatchOutputBytes = "batch_output_bytes"
	// LimitHistoryBytes and LimitHistoryEvents: one workflow's history
	// would pass the bound kept below the server's (which terminates the
	// workflow).
	LimitHistoryBytes  = "history_bytes"
	LimitHistoryEvents = "history_events"
	// LimitIDBytes: a run's workflow ID longer than child IDs can be
	// derived from.
	LimitIDBytes = "id_bytes"
	// LimitMaxConcurrency: a window over the pending-children bound (a
	// library that skipped validation).
	LimitMaxConcurrency = "max_concurrency"
)

// Limit is a TemporalLimitError: final (the same data fails the same way
// on every attempt), naming the bound, the pipe (and field and batch
// item, -1 for none), the size reached and the bound.
func Limit(limit, pipe, field string, item int, observed, max int64, msg string) error {
	d := Details{Kind: "limit", Pipe: pipe, Field: field, Item: item, Limit: limit, Observed: observed, Max: max}
	return temporal.NewNonRetryableApplicationError(msg+" ("+limit+": "+strconv.FormatInt(observed, 10)+
		" over "+strconv.FormatInt(max, 10)+")", ErrTypeLimit, nil, d)
}
