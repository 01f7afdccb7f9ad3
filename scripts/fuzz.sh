#!/usr/bin/env bash
# Runs every fuzz target of the engine packages for FUZZTIME each. The
# targets (FuzzLex, FuzzParse in ./engine/syntax, FuzzRender in ./engine)
# are listed with `go test -list` rather than named, so a package or
# target that does not exist yet is skipped instead of failing the run.
set -euo pipefail

GO=${GO:-go}
FUZZTIME=${FUZZTIME:-30s}
PACKAGES=(./engine/syntax ./engine)

ran=0
for pkg in "${PACKAGES[@]}"; do
	if [[ ! -d $pkg ]] || ! "$GO" list "$pkg" >/dev/null 2>&1; then
		echo "fuzz: $pkg: no such package, skipped"
		continue
	fi
	# go test -list prints the matching names, then "ok <pkg> <time>". A
	# package that does not compile is an error, not "no targets".
	if ! listing=$("$GO" test -run '^$' -list '^Fuzz' "$pkg"); then
		echo "fuzz: $pkg: go test -list failed" >&2
		exit 1
	fi
	targets=$(grep '^Fuzz' <<<"$listing" || true)
	if [[ -z $targets ]]; then
		echo "fuzz: $pkg: no fuzz targets yet, skipped"
		continue
	fi
	for t in $targets; do
		echo "fuzz: $pkg $t for $FUZZTIME"
		# -timeout 0: go test's default of 10 minutes would stop a longer
		# FUZZTIME partway, as a failure
		"$GO" test -run '^$' -fuzz "^${t}\$" -fuzztime "$FUZZTIME" -timeout 0 "$pkg"
		ran=$((ran + 1))
	done
done
echo "fuzz: $ran target(s) run"
