#!/usr/bin/env bash
# Tests `ctrllint lsp` with a real LSP client: a headless Neovim configured
# by hack/lsp/init.lua and driven by hack/lsp/e2e.lua, on a copy of the
# tombstonefix fixture (so the repository is not modified), loading from
# the module cache only (make testdata fills it).
#
# Without a usable Neovim (and no way to install one: hack/lsp/neovim.sh),
# it prints "lsp: SKIPPED: <reason>" and exits 0. CTRLLINT_SKIP_LSP_E2E=1
# skips it too.
set -euo pipefail
cd "$(dirname "$0")/../.."
GO=${GO:-go}

case "${CTRLLINT_SKIP_LSP_E2E:-}" in
"" | 0) ;;
*) echo "lsp: SKIPPED: CTRLLINT_SKIP_LSP_E2E=$CTRLLINT_SKIP_LSP_E2E"; exit 0 ;;
esac
if ! reason=$(hack/lsp/neovim.sh 2>&1); then
	echo "lsp: SKIPPED: $(printf '%s\n' "$reason" | sed -n 's/^neovim: //p' | tail -n 1)"
	exit 0
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/bin" "$tmp/mod/tombstonefix" "$tmp/xdg"
$GO build -o "$tmp/bin/ctrllint-server" ./cmd/ctrllint
# The client starts `ctrllint lsp` from PATH; this ctrllint records the
# server's stderr and exit status.
cat >"$tmp/bin/ctrllint" <<'WRAPPER'
#!/bin/sh
"$(dirname "$0")/ctrllint-server" "$@" 2>>"$LSP_E2E_TMP/server.log"
status=$?
echo "$status" >"$LSP_E2E_TMP/server.status"
exit "$status"
WRAPPER
chmod +x "$tmp/bin/ctrllint"
cp testdata/src/current/go.mod testdata/src/current/go.sum "$tmp/mod/"
cp testdata/src/current/tombstonefix/* "$tmp/mod/tombstonefix/"

echo "lsp: $(nvim --version | head -n 1), fixture copy in $tmp/mod"
status=0
env PATH="$tmp/bin:$PATH" LSP_E2E_TMP="$tmp" LSP_E2E_DIR="$tmp/mod" \
	GOPROXY=off GOFLAGS=-mod=mod GOWORK=off GOCACHE="$($GO env GOCACHE)" \
	XDG_CACHE_HOME="$tmp/xdg" XDG_STATE_HOME="$tmp/xdg" XDG_DATA_HOME="$tmp/xdg" \
	timeout 300 nvim --headless --clean -n -u hack/lsp/init.lua -c "luafile hack/lsp/e2e.lua" </dev/null || status=$?

server=$(cat "$tmp/server.status" 2>/dev/null || echo "none (still running, or never started)")
if [ "$status" != 0 ] || [ "$server" != 0 ]; then
	echo "lsp: FAILED: nvim exited with status $status, the server with status $server" >&2
	for f in "$tmp/server.log" "$tmp"/xdg/nvim/lsp.log; do
		[ -s "$f" ] && { echo "--- $f" >&2; tail -n 40 "$f" >&2; }
	done
	exit 1
fi
echo "lsp: server's last run: $(grep -h 'findings in' "$tmp/server.log" | tail -n 1)"
echo "lsp: PASSED (server exit status 0)"
