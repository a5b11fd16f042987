# Shared by the action's step scripts (action.yml at the repository root).
# Each step is a script of its own so that it runs outside GitHub too: the
# runner's files and variables (GITHUB_OUTPUT, GITHUB_PATH, RUNNER_TEMP) are
# optional here, and inputs come as INPUT_* variables, which action.yml sets
# from its inputs (never spliced into the script text, where an input could
# inject shell).

# output NAME VALUE: a step output, in $GITHUB_OUTPUT under the runner and
# on stdout elsewhere, so that a person running the script sees it.
output() {
	printf '%s=%s\n' "$1" "$2" >>"${GITHUB_OUTPUT:-/dev/stdout}"
}

# output_lines NAME VALUE: an output whose value has several lines, in the
# runner's NAME<<DELIMITER form.
output_lines() {
	local eof=EOF_$RANDOM$RANDOM
	printf '%s<<%s\n%s\n%s\n' "$1" "$eof" "$2" "$eof" >>"${GITHUB_OUTPUT:-/dev/stdout}"
}

fail() {
	echo "ctrllint action: $*" >&2
	exit 2
}

# boolean NAME VALUE: true or false, else a clear error: in action.yml's
# if: conditions anything but 'true' would silently mean false.
boolean() {
	case $2 in
	true | false) ;;
	*) fail "input $1: \"$2\", want true or false" ;;
	esac
}

# sha256 FILE: the file's SHA-256, in hex.
sha256() {
	local sum
	if command -v sha256sum >/dev/null; then
		sum=$(sha256sum "$1")
	else
		sum=$(shasum -a 256 "$1")
	fi
	echo "${sum%% *}"
}
