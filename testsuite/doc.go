// Package testsuite holds the project's cross-cutting tests: the
// conformance and hostile corpora with their pass-count floors, the
// engine invariants (no output on refusal, a clean environment after one,
// deterministic output and units), the engine's dependency boundary and
// the benchmark workloads against text/template. It has no API; the case
// logic lives in internal/casecheck so `jinjabox check` runs the same code.
//
// The corpora are in the module, in testdata/shared: byte-exact copies of
// the project's shared tree (../shared beside the repository root), so a
// clone of the module alone runs every test here. TestSharedCopyInSync
// fails when that tree exists (or JINJABOX_SHARED names one) and differs
// from the copy; `make sync-corpora` refreshes it.
package testsuite
