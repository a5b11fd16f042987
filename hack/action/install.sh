#!/usr/bin/env bash
# Install ctrllint into a directory of its own under RUNNER_TEMP and
# put it on PATH for the job's later steps. INPUT_VERSION empty or "local"
# builds the action's own checkout (GITHUB_ACTION_PATH, which the runner
# sets to where it unpacked the action at the ref the workflow names), any
# other value is go install's version query for the module.
# Outputs: path (the binary), sha256 (its hash, for the cache key),
# version (its -V line).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"

bin=${RUNNER_TEMP:-${TMPDIR:-/tmp}}/ctrllint-action/bin
mkdir -p "$bin"
# Not the workflow's go.work or -mod flag (-mod=vendor fails on
# ctrllint's module, which has no vendor directory): ctrllint is built with
# its own go.mod, as go install pkg@version builds it.
flags=()
read -ra words <<<"${GOFLAGS:-}"
for f in ${words[@]+"${words[@]}"}; do
	case $f in -mod=*) ;; *) flags+=("$f") ;; esac
done
export GOWORK=off GOBIN=$bin GOFLAGS="${flags[*]}"
version=${INPUT_VERSION:-local}
if [ "$version" = local ]; then
	src=${GITHUB_ACTION_PATH:-$(cd "$here/../.." && pwd)}
	[ -f "$src/cmd/ctrllint/main.go" ] || fail "version local: no ctrllint source in $src (GITHUB_ACTION_PATH)"
	# As make build: a git that cannot read the checkout (another user's
	# files in a container) makes go build fail instead of not stamping.
	vcs=auto
	git -C "$src" status --porcelain >/dev/null 2>&1 || vcs=false
	(cd "$src" && go install -buildvcs=$vcs ./cmd/ctrllint)
else
	# Outside any module, so that the workflow's go.mod cannot get in the
	# way.
	(cd "$bin" && go install "github.com/ctrllint/ctrllint/cmd/ctrllint@$version")
fi
exe=$bin/ctrllint
[ -x "$exe" ] || exe=$bin/ctrllint.exe
[ -x "$exe" ] || fail "go install left no ctrllint in $bin"
# ctrllint looks nothing up in its result cache for an executable it has
# not seen, and knows one by path, size and modification time (the tool
# memo in the cache's tool/). A fresh install on each job would never use
# the results the cache step restored: a modification time made from the
# contents makes the same build look the same on the next runner, and
# another build different (touch -t is POSIX; in UTC, no time falls in
# a daylight saving gap).
h=$(sha256 "$exe")
n=$((16#${h:0:12}))
TZ=UTC0 touch -t "$(printf '%04d%02d%02d%02d%02d.%02d' $((2001 + n % 50)) $((1 + n / 50 % 12)) $((1 + n / 600 % 28)) \
	$((n / 16800 % 24)) $((n / 403200 % 60)) $((n / 24192000 % 60)))" "$exe"
[ -z "${GITHUB_PATH:-}" ] || echo "$bin" >>"$GITHUB_PATH"
output path "$exe"
output sha256 "$h"
output version "$("$exe" -V)"
