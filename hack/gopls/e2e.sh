#!/usr/bin/env bash
# Tests `ctrllint gopls` with a real editor and the real gopls: a headless
# Neovim configured by hack/gopls/init.lua and driven by hack/gopls/e2e.lua,
# on a copy of the tombstonefix fixture with a line gopls reports, loading
# from the module cache only (make testdata fills it). Twice: started as
# `ctrllint gopls` (Neovim's, Helix's set-up) and as `ctrllint-gopls`, a
# link to ctrllint (VS Code's go.alternateTools).
#
# Usage: hack/gopls/e2e.sh path/to/gopls
# Without a usable Neovim it prints "gopls-e2e: SKIPPED: <reason>" and
# exits 0.
set -euo pipefail
cd "$(dirname "$0")/../.."
GO=${GO:-go}
gopls=${1:?usage: hack/gopls/e2e.sh path/to/gopls}

if ! reason=$(hack/lsp/neovim.sh 2>&1); then
	echo "gopls-e2e: SKIPPED: $(printf '%s\n' "$reason" | sed -n 's/^neovim: //p' | tail -n 1)"
	exit 0
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/bin" "$tmp/real" "$tmp/xdg"
$GO build -o "$tmp/real/ctrllint" ./cmd/ctrllint
ln -s ctrllint "$tmp/real/ctrllint-gopls"
# The client starts the proxy from PATH; these record its stderr and exit
# status.
for name in ctrllint ctrllint-gopls; do
	cat >"$tmp/bin/$name" <<WRAPPER
#!/bin/sh
"\$(dirname "\$0")/../real/$name" "\$@" 2>>"\$GOPLS_E2E_TMP/server.log"
status=\$?
echo "\$status" >"\$GOPLS_E2E_TMP/server.status"
exit "\$status"
WRAPPER
	chmod +x "$tmp/bin/$name"
done

status=0
for cmd in "ctrllint gopls" "ctrllint-gopls"; do
	rm -rf "$tmp/mod" "$tmp/server.status"
	mkdir -p "$tmp/mod/tombstonefix"
	cp testdata/src/current/go.mod testdata/src/current/go.sum "$tmp/mod/"
	cp testdata/src/current/tombstonefix/*.go "$tmp/mod/tombstonefix/"
	printf '\nfunc selfAssign() {\n\tx := 1\n\tx = x\n\t_ = x\n}\n' >>"$tmp/mod/tombstonefix/handlers.go"
	echo "gopls-e2e: $(nvim --version | head -n 1), $("$gopls" version | head -n 1), started as: $cmd"
	run=0
	# GOBIN: where the proxy finds gopls first, as the Go extension would.
	env PATH="$tmp/bin:$PATH" GOBIN="$(dirname "$gopls")" CTRLLINT_GOPLS_CMD="$cmd" \
		GOPLS_E2E_TMP="$tmp" GOPLS_E2E_DIR="$tmp/mod" \
		GOPROXY=off GOFLAGS=-mod=mod GOWORK=off GOTELEMETRY=off GOCACHE="$($GO env GOCACHE)" \
		XDG_CACHE_HOME="$tmp/xdg" XDG_STATE_HOME="$tmp/xdg" XDG_DATA_HOME="$tmp/xdg" \
		timeout 300 nvim --headless --clean -n -u hack/gopls/init.lua -c "luafile hack/gopls/e2e.lua" </dev/null || run=$?
	server=$(cat "$tmp/server.status" 2>/dev/null || echo "none (still running, or never started)")
	if [ "$run" != 0 ] || [ "$server" != 0 ]; then
		echo "gopls-e2e: FAILED ($cmd): nvim exited with status $run, the proxy with status $server" >&2
		for f in "$tmp/server.log" "$tmp"/xdg/nvim/lsp.log; do
			[ -s "$f" ] && { echo "--- $f" >&2; tail -n 40 "$f" >&2; }
		done
		status=1
	fi
done
[ "$status" = 0 ] && echo "gopls-e2e: PASSED (proxy exit status 0, both ways of starting it)"
exit "$status"
