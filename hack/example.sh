#!/usr/bin/env bash
# make example: ctrllint on the bundled example controller
# (testdata/src/current/example, one deliberate finding of every analyzer),
# then what `ctrllint -fix` changes there, as a unified diff. -fix runs on a
# copy, so the checked-in example keeps its findings.
#
# The binary is $CTRLLINT (default bin/ctrllint). cmd/ctrllint's
# TestExampleOutput runs this script and compares its output with the
# README's "Start here" block.
#
# Exit status: 0 when ctrllint reported findings (exit 1) and -fix applied
# fixes to the copy; 1 otherwise, with the reason on stderr.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
bin=${CTRLLINT:-$root/bin/ctrllint}
case $bin in /*) ;; *) bin=$PWD/$bin ;; esac
mod=$root/testdata/src/current
fail() { echo "example: FAILED: $*" >&2; exit 1; }
[ -x "$bin" ] || fail "$bin not built (make build)"

# Dependencies type-checked from source: on a fresh clone the go command
# has built none of the example's (client-go, controller-runtime), and
# ctrllint's usual first run lets it compile them for ten seconds before
# it type-checks them from source (docs/performance.md, "From an empty
# build cache"). So make example compiles nothing but ctrllint
# (TestExampleCompilesNothing), and the -fix run and later ones read the
# export data this run keeps. The findings are the same either way
# (TestFromSourceFindsTheSame).
export CTRLLINT_FROM_SOURCE=1

cd "$mod"
status=0
"$bin" ./example/... || status=$?
[ "$status" -eq 1 ] || fail "ctrllint exited $status, want 1 (findings)"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cp go.mod go.sum "$tmp"
cp -r example "$tmp"
# Some findings have no automatic fix, so -fix still exits 1; its
# summary ("ctrllint: applied N fixes to M files") goes to stderr.
status=0
(cd "$tmp" && "$bin" -fix ./example/... >"$tmp/fix.out" 2>"$tmp/fix.err") || status=$?
[ "$status" -eq 1 ] || { cat "$tmp/fix.out" "$tmp/fix.err" >&2; fail "ctrllint -fix exited $status, want 1 (findings left without a fix)"; }
# Anything else it says (a fix skipped for a conflict) is for the reader.
grep -v '^ctrllint: applied ' "$tmp/fix.err" >&2 || true
summary=$(sed -n 's/^ctrllint: \(applied .*\)$/\1/p' "$tmp/fix.err")
[ -n "$summary" ] || fail "ctrllint -fix applied no fix (no \"ctrllint: applied N fixes\" line on its stderr)"

echo
echo "ctrllint -fix, on a copy of the example: $summary"
for f in example/*.go; do
	# One line of context keeps the output short, and each hunk still shows
	# the line with its analyzer's comment. diff exits 1 when the files
	# differ, 2 on trouble.
	status=0
	diff -U1 --label "a/$f" --label "b/$f" "$f" "$tmp/$f" || status=$?
	[ "$status" -le 1 ] || fail "diff $f exited $status"
done
