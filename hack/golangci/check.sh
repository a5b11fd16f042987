#!/usr/bin/env bash
# make golangci: the ctrllint plugin under a real golangci-lint.
#
# Builds (or finds in the cache) golangci-lint with the plugin linked in
# (hack/golangci/build.sh, from .custom-gcl.yml), then runs plugin's
# TestGolangci with it: .golangci-example.yml and variants of it on the
# fixture module testdata/src/current, compared with the fixtures' `// want`
# expectations. See docs/golangci-lint.md.
#
# When the binary cannot be built because the module proxy is out of reach,
# this says "golangci: SKIPPED: <reason>" and exits 0. A plugin that does not
# compile, or findings that differ from the expectations, exit 1.
# CTRLLINT_SKIP_GOLANGCI=1 skips the check.
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.." || exit 1
GO=${GO:-go}

case "${CTRLLINT_SKIP_GOLANGCI:-}" in
"" | 0) ;;
*) echo "golangci: SKIPPED: CTRLLINT_SKIP_GOLANGCI=$CTRLLINT_SKIP_GOLANGCI"; exit 0 ;;
esac

tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
start=$SECONDS
# Progress (build.sh's stderr) goes to the terminal and to a log; the binary's
# path (its stdout) to a file.
{ hack/golangci/build.sh 2>&1 >"$tmp/bin"; echo $? >"$tmp/rc"; } | tee "$tmp/log"
rc=$(cat "$tmp/rc")
case "$rc" in
0) ;;
3)
	reason=$(sed -n 's/^golangci-build: UNAVAILABLE: //p' "$tmp/log" | tail -n 1)
	echo "golangci: SKIPPED: ${reason:-the custom golangci-lint could not be built}"
	exit 0
	;;
*)
	echo "golangci: FAILED: the custom golangci-lint did not build (hack/golangci/build.sh exited $rc; see above)" >&2
	exit 1
	;;
esac
bin=$(cat "$tmp/bin")
built=$((SECONDS - start))

echo "golangci: testing the plugin with $bin"
# golangci-lint's analysis cache lives beside the binary, so an unchanged
# plugin on unchanged fixtures is checked in seconds. Its entries are salted
# with the binary's version (which hashes the plugin's sources) and the
# linter settings, and keyed by the fixture files; a new binary gets a new
# directory. CTRLLINT_GOLANGCI_FRESH=1 uses an empty one instead.
lint_cache=$(dirname "$bin")/lint-cache
case "${CTRLLINT_GOLANGCI_FRESH:-}" in "" | 0) ;; *) lint_cache=$tmp/lint-cache ;; esac
if ! CTRLLINT_GOLANGCI_LINT=$bin CTRLLINT_GOLANGCI_LINT_CACHE=$lint_cache "$GO" test -count=1 -run '^TestGolangci$' -v ./plugin >"$tmp/test.log" 2>&1; then
	cat "$tmp/test.log"
	echo "golangci: FAILED: golangci-lint's findings with the plugin differ from the expectations (see above)" >&2
	exit 1
fi
# The subtests' verdicts, not the whole -v log.
grep -E '^\s*--- (PASS|SKIP)' "$tmp/test.log"
if grep -q -- '--- SKIP: TestGolangci ' "$tmp/test.log"; then
	echo "golangci: FAILED: TestGolangci skipped although the binary was given" >&2
	exit 1
fi
echo "golangci: PASS (binary: ${built}s, test: $((SECONDS - start - built))s)"
