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
# ctrllint knows a build it has not seen at this path and time by its
# contents (the cache's tool/id-HASH): the results the cache step
# restored serve this fresh install of the same build.
h=$(sha256 "$exe")
[ -z "${GITHUB_PATH:-}" ] || echo "$bin" >>"$GITHUB_PATH"
output path "$exe"
output sha256 "$h"
output version "$("$exe" -V)"
