#!/usr/bin/env bash
# The last step, after the SARIF upload: fail the job on findings unless
# INPUT_FAIL_ON_FINDINGS is false. EXIT_CODE is ctrllint's, from run.sh.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

case ${EXIT_CODE:-} in
0) ;;
1)
	if [ "${INPUT_FAIL_ON_FINDINGS:-true}" = true ]; then
		echo "ctrllint reported findings (fail-on-findings: false lets the job pass with them)" >&2
		exit 1
	fi
	;;
*) fail "EXIT_CODE is \"${EXIT_CODE:-}\", want ctrllint's exit status from the run step" ;;
esac
