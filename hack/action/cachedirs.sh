#!/usr/bin/env bash
# The directories the action caches between runs (actions/cache):
# ctrllint's cache, whose results/ are the findings of packages that have
# not changed and whose exports/ are the export data of dependencies it
# type-checked from source, its tool/ (how it knows the executable: see
# install.sh), and the go build cache, which holds the export
# data go list -export compiled for the rest. INPUT_CACHE=false caches
# nothing.
# Outputs: ctrllint-cache (the directory the run step hands ctrllint as
# CTRLLINT_CACHE; "off" when the workflow turned ctrllint's cache off) and
# paths (what to cache, one a line; empty for nothing).
set -euo pipefail
. "$(dirname "$0")/lib.sh"

# Where ctrllint keeps its cache by default: os.UserCacheDir()/ctrllint.
# The run step passes it explicitly, so this only decides that the action
# shares its cache with later ctrllint runs of the job.
default_dir() {
	case $(uname -s) in
	Darwin) echo "$HOME/Library/Caches/ctrllint" ;;
	MINGW* | MSYS* | CYGWIN*) echo "${LOCALAPPDATA:?}/ctrllint" ;;
	*) echo "${XDG_CACHE_HOME:-$HOME/.cache}/ctrllint" ;;
	esac
}

dir=${CTRLLINT_CACHE:-$(default_dir)}
output ctrllint-cache "$dir"
paths=
if [ "${INPUT_CACHE:-true}" = true ]; then
	[ "$dir" = off ] || paths=$dir/results$'\n'$dir/exports$'\n'$dir/tool
	gocache=$(go env GOCACHE)
	[ -z "$gocache" ] || [ "$gocache" = off ] || paths=${paths:+$paths$'\n'}$gocache
fi
output_lines paths "$paths"
