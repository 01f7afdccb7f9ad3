// Package testsuite holds the project's cross-cutting tests: the shared
// conformance and hostile corpora with their pass-count floors, the
// engine invariants (no output on refusal, a clean environment after one,
// deterministic output and units), the engine's dependency boundary and
// the benchmark workloads against text/template. It has no API; the case
// logic lives in testsuite/corpus so `jinjabox check` runs the same code.
//
// The corpora live outside the module, in ../shared from the repository
// root; set JINJABOX_SHARED to point elsewhere. Tests skip when it is
// absent.
package testsuite
