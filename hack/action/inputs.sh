#!/usr/bin/env bash
# The action's first step: check the inputs before anything is installed, so a
# typo fails at once with the input's name instead of being read as false
# by an if: condition, or as a flag by ctrllint.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

boolean fail-on-findings "${INPUT_FAIL_ON_FINDINGS-true}"
boolean upload-sarif "${INPUT_UPLOAD_SARIF-true}"
boolean cache "${INPUT_CACHE-true}"
case ${INPUT_VERSION:-local} in
# A module query (v0.2.0, latest, a commit): go install's @ suffix.
-* | *[!A-Za-z0-9._+-]*) fail "input version: \"$INPUT_VERSION\" is not a version (want e.g. v0.2.0, or local)" ;;
esac
[ -n "${INPUT_PACKAGES//[[:space:]]/}" ] || fail "input packages is empty (to analyse the module at the repository root: ./...)"
[ -n "${INPUT_SARIF_FILE:-}" ] || fail "input sarif-file is empty"
