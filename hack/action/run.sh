#!/usr/bin/env bash
# ctrllint -f sarif on INPUT_PACKAGES (space-separated go list
# patterns) with INPUT_ARGS (more flags, space-separated), from the
# working directory (the repository root), which is where ctrllint finds
# the repository's .ctrllint.yml. The log is written to INPUT_SARIF_FILE.
# CTRLLINT is the binary (install.sh's path), CTRLLINT_CACHE its cache.
# Exit status: 0 when ctrllint found nothing or reported findings (exit 1:
# they are uploaded first, and check.sh fails the job afterwards), 2 when
# it could not analyse the code, which fails the job here.
# Outputs: exit-code (ctrllint's), sarif-file.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

[ -n "${CTRLLINT:-}" ] || fail "CTRLLINT is not set (the install step's path)"
# Split on blanks without expanding ./... or other patterns as globs.
read -ra packages <<<"${INPUT_PACKAGES:-./...}"
read -ra args <<<"${INPUT_ARGS:-}"
sarif=${INPUT_SARIF_FILE:-ctrllint.sarif}
mkdir -p "$(dirname "$sarif")"
code=0
"$CTRLLINT" -f sarif ${args[@]+"${args[@]}"} "${packages[@]}" >"$sarif" || code=$?
output exit-code "$code"
output sarif-file "$sarif"
case $code in
0) echo "ctrllint: no findings" ;;
1)
	# The findings in the log too, for whoever reads it: a second run
	# answers from the result cache the first one filled.
	echo "ctrllint: findings (SARIF in $sarif):"
	"$CTRLLINT" ${args[@]+"${args[@]}"} "${packages[@]}" || true
	;;
*)
	echo "ctrllint exited $code: the code was not analysed (the reason is above)" >&2
	exit "$code"
	;;
esac
