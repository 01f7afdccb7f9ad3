package workflows

import (
	"crypto/sha256"
	"encoding/hex"
	"strconv"

	"go.temporal.io/sdk/workflow"

	"github.com/jinjabox/jinjabox/failure"
)

// childID is the workflow ID of a child of the current workflow: the
// parent's ID and the child's key (unique among its siblings, the same on
// every run), "<parent>/<key>", while that is at most
// MaxReadableIDBytes. Past that (deep nesting, long pipe codes, pages of
// pages) it is "<root>/~" and 32 hex digits of the SHA-256 of the
// readable form: unique as the readable form is, the same on replay, and
// never longer than the root's ID plus 34 bytes, which checkRootID keeps
// within the server's 1,000.
func childID(ctx workflow.Context, key string) string {
	info := workflow.GetInfo(ctx)
	id := info.WorkflowExecution.ID + "/" + key
	if len(id) <= MaxReadableIDBytes {
		return id
	}
	root := info.WorkflowExecution.ID
	if info.RootWorkflowExecution != nil {
		root = info.RootWorkflowExecution.ID
	}
	sum := sha256.Sum256([]byte(id))
	return root + "/~" + hex.EncodeToString(sum[:])[:hashedIDSuffixBytes-2]
}

// CheckRootID refuses a run's workflow ID too long to derive child IDs
// from (MaxRootIDBytes): a starter can call it before starting a run,
// and a root workflow fails with it at once.
func CheckRootID(id string) error {
	if len(id) > MaxRootIDBytes {
		return failure.Limit(failure.LimitIDBytes, "", "", -1, int64(len(id)), MaxRootIDBytes,
			"the workflow ID is "+strconv.Itoa(len(id))+" bytes; a run's ID may have at most "+strconv.Itoa(MaxRootIDBytes))
	}
	return nil
}

// checkRoot applies CheckRootID to the current workflow when it is a
// run's root.
func checkRoot(ctx workflow.Context) error {
	info := workflow.GetInfo(ctx)
	if info.RootWorkflowExecution != nil && info.RootWorkflowExecution.ID != info.WorkflowExecution.ID {
		return nil
	}
	return CheckRootID(info.WorkflowExecution.ID)
}
