#!/usr/bin/env bash
# Builds the gopls that ctrllint gopls is tested against, once, from the Go
# module proxy (go install golang.org/x/tools/gopls@$GOPLS_VERSION), into a
# cache directory outside the clone:
#   ${CTRLLINT_CACHE:-$HOME/.cache/ctrllint}/gopls-<version>/gopls
# When it exists the script returns at once. Progress goes to stderr; the
# only line on stdout is the binary's path:
#   bin=$(hack/gopls/build.sh) && "$bin" version
#
# Exit status: 0 built or cached; 3 a module could not be downloaded (last
# stderr line "gopls-build: UNAVAILABLE: <reason>"); 1 anything else.
set -euo pipefail

GO=${GO:-go}
CACHE=${CTRLLINT_CACHE:-$HOME/.cache/ctrllint}
# The version the tests expect: v0.23.0 builds with the project's Go.
version=${GOPLS_VERSION:-v0.23.0}
dir=$CACHE/gopls-$version
bin=$dir/gopls

log() { echo "gopls-build: $*" >&2; }
if [ -x "$bin" ]; then
	log "gopls $version: cached in $bin"
	echo "$bin"
	exit 0
fi
command -v "$GO" >/dev/null || { log "FAILED: the go command ($GO) is not on PATH"; exit 1; }
mkdir -p "$dir" || { log "FAILED: cannot create $dir"; exit 1; }
# One build at a time (make test and make gopls may race).
if command -v flock >/dev/null; then
	exec 9>"$dir/.lock"
	flock 9
	if [ -x "$bin" ]; then
		echo "$bin"
		exit 0
	fi
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
log "building gopls $version into $bin (cold: a few minutes)"
# Outside any module, and with no flags meant for one.
if ! (cd "$tmp" && GOBIN="$tmp/bin" GOFLAGS=-buildvcs=false GOWORK=off "$GO" install "golang.org/x/tools/gopls@$version") >"$tmp/log" 2>&1; then
	cat "$tmp/log" >&2
	if grep -Eq 'dial tcp|no such host|connection refused|i/o timeout|proxyconnect|TLS handshake|module lookup disabled|GOPROXY=off|unexpected EOF|: 50[0-9] |Service Unavailable' "$tmp/log"; then
		log "UNAVAILABLE: cannot download gopls $version (is the Go module proxy reachable? GOPROXY=$("$GO" env GOPROXY))"
		exit 3
	fi
	log "FAILED: go install golang.org/x/tools/gopls@$version"
	exit 1
fi
mv -f "$tmp/bin/gopls" "$bin"
log "done: $("$bin" version | head -n 1)"
echo "$bin"
