# Sourced by the budget-overhead scripts (bench-overhead.sh,
# bench-instructions.sh): builds the testsuite's benchmarks twice into a
# temporary directory $tmp, removed on exit: $tmp/on.test (the default
# build, which meters) and $tmp/off.test (the jinjabox_nometer build,
# which charges nothing). Leaves the shell in the module's root ($root).
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$root"
"$GO" test -c -o "$tmp/on.test" ./testsuite
"$GO" test -c -tags jinjabox_nometer -o "$tmp/off.test" ./testsuite
