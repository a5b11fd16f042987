#!/usr/bin/env bash
# Makes sure a Neovim that can run hack/lsp/e2e.lua (0.7 or later) is
# installed, from Debian's packages if it is not and we are root.
# Exits 0 when one is there; otherwise prints "neovim: <reason>" on stderr
# and exits 1.
set -euo pipefail

usable() {
	command -v nvim >/dev/null || return 1
	local v
	v=$(nvim --version | sed -n '1s/^NVIM v\([0-9]*\)\.\([0-9]*\).*/\1 \2/p')
	[ -n "$v" ] || return 1
	set -- $v
	[ "$1" -gt 0 ] || [ "$2" -ge 7 ]
}

if usable; then
	exit 0
fi
if command -v nvim >/dev/null; then
	echo "neovim: $(nvim --version | head -n 1) is older than 0.7" >&2
	exit 1
fi
if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null; then
	echo "neovim: nvim is not installed (apt-get install neovim, as root, installs it)" >&2
	exit 1
fi
log=$(mktemp)
trap 'rm -f "$log"' EXIT
if ! { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq neovim; } >"$log" 2>&1; then
	tail -n 5 "$log" >&2
	echo "neovim: apt-get install neovim failed" >&2
	exit 1
fi
usable || { echo "neovim: installed, but $(nvim --version | head -n 1) is older than 0.7" >&2; exit 1; }
