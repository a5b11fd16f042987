#!/usr/bin/env bash
# Builds golangci-lint with the module plugins of .custom-gcl.yml linked in
# (ctrllint's plugin package), from the Go module proxy alone.
#
# `golangci-lint custom` does this by cloning golangci-lint from GitHub at the
# file's `version`, writing cmd/golangci-lint/plugins.go (blank imports of
# the plugins), adding a replace directive per local plugin (`path:`) or a
# `go get` per published one (`version:`), then `go mod tidy` and `go build`.
# This script does the same in a throwaway wrapper module that requires
# golangci-lint at that version from the module proxy, with a main of its own
# (hack/golangci/main.go.tmpl: golangci-lint's commands.Execute) and the same
# generated plugins.go. Same golangci-lint, same plugins, same dependency
# resolution; no git, no GitHub.
#
# The binary goes to a cache directory outside the clone:
#   ${CTRLLINT_CACHE:-$HOME/.cache/ctrllint}/golangci/<version>-<hash>/<name>
# keyed by the golangci-lint version and a hash of the plugins' Go sources
# (go.mod, go.sum, *.go outside testdata), this script, the main template,
# .custom-gcl.yml and the Go version. When it exists the script returns at
# once. Progress goes to stderr; the only line on stdout is the binary's path:
#   bin=$(hack/golangci/build.sh) && "$bin" run ./...
#
# Exit status: 0 built or cached; 3 the build could not start because a
# module could not be downloaded (last stderr line
# "golangci-build: UNAVAILABLE: <reason>"); 1 anything else, e.g. the
# plugin does not compile ("golangci-build: FAILED: <reason>").
#
# Usage: hack/golangci/build.sh [path/to/.custom-gcl.yml]
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
config=${1:-$root/.custom-gcl.yml}
GO=${GO:-go}
CACHE=${CTRLLINT_CACHE:-$HOME/.cache/ctrllint}

start=$SECONDS
log() { echo "golangci-build: [$((SECONDS - start))s] $*" >&2; }
die() { echo "golangci-build: FAILED: $*" >&2; exit 1; }
unavailable() { echo "golangci-build: UNAVAILABLE: $*" >&2; exit 3; }

[ -f "$config" ] || die "no $config"
config=$(cd "$(dirname "$config")" && pwd)/$(basename "$config")
configdir=$(dirname "$config")
command -v "$GO" >/dev/null || die "the go command ($GO) is not on PATH"

# .custom-gcl.yml, the subset golangci-lint custom reads: top-level version
# and name, and a list of plugins with module, import, version or path.
# Printed as "version V", "name N" and "plugin INDEX KEY VALUE".
parsed=$(awk '
	function value(s) {
		sub(/^[^:]*:[ \t]*/, "", s)
		sub(/[ \t]+#.*$/, "", s)
		sub(/[ \t]+$/, "", s)
		if (s ~ /^".*"$/ || s ~ /^\x27.*\x27$/) s = substr(s, 2, length(s) - 2)
		return s
	}
	/^[ \t]*(#.*)?$/ { next }
	/^version:/ { print "version " value($0); next }
	/^name:/ { print "name " value($0); next }
	/^plugins:/ { inplugins = 1; next }
	/^[^ \t-]/ { inplugins = 0; next }
	inplugins && /^[ \t]*- / { n++; sub(/- /, "  ") }
	inplugins && n && /^[ \t]+[a-z]+:/ {
		key = $1; sub(/:$/, "", key)
		print "plugin " n " " key " " value($0)
	}
' "$config")
gcl_version=$(printf '%s\n' "$parsed" | awk '$1 == "version" { print $2 }')
name=$(printf '%s\n' "$parsed" | awk '$1 == "name" { print $2 }')
name=${name:-custom-gcl}
case "$gcl_version" in
v2.*) ;;
"") die "$config has no top-level version (the golangci-lint release to build)" ;;
*) die "$config: version $gcl_version is not a golangci-lint v2 release (the plugin and this script need v2)" ;;
esac

# The plugins: module, import (default: the module), and version or path.
declare -A p_module=() p_import=() p_version=() p_path=()
while read -r kind n key val; do
	[ "$kind" = plugin ] || continue
	case "$key" in
	module) p_module[$n]=$val ;;
	import) p_import[$n]=$val ;;
	version) p_version[$n]=$val ;;
	path) p_path[$n]=$val ;;
	*) die "$config: plugin $n: unknown key $key" ;;
	esac
done <<<"$parsed"
[ ${#p_module[@]} -gt 0 ] || die "$config lists no plugins"
plugins=$(printf '%s\n' "${!p_module[@]}" | sort -n)
for n in $plugins; do
	[ -n "${p_module[$n]}" ] || die "$config: plugin $n has no module"
	p_import[$n]=${p_import[$n]:-${p_module[$n]}}
	if [ -n "${p_path[$n]:-}" ] && [ -n "${p_version[$n]:-}" ]; then
		die "$config: plugin ${p_module[$n]} has both path and version"
	fi
	if [ -n "${p_path[$n]:-}" ]; then
		# Relative to the file, as golangci-lint custom (run beside it) reads it.
		case "${p_path[$n]}" in /*) ;; *) p_path[$n]=$configdir/${p_path[$n]} ;; esac
		[ -d "${p_path[$n]}" ] || die "$config: plugin ${p_module[$n]}: no directory ${p_path[$n]}"
		p_path[$n]=$(cd "${p_path[$n]}" && pwd)
	elif [ -z "${p_version[$n]:-}" ]; then
		die "$config: plugin ${p_module[$n]} needs a path or a version"
	fi
done

# The cache key. Local plugins: every file that can change the binary.
hash_tree() {
	(cd "$1" && find . \( -name testdata -o -name .git -o -name bin -o -name node_modules \) -prune \
		-o -type f \( -name '*.go' -o -name go.mod -o -name go.sum \) -print0 |
		LC_ALL=C sort -z | xargs -0 -r sha256sum)
}
key_input() {
	echo "golangci-lint $gcl_version"
	"$GO" env GOVERSION GOOS GOARCH
	sha256sum "$0" "$here/main.go.tmpl" "$config" | cut -d' ' -f1
	for n in $plugins; do
		echo "plugin ${p_module[$n]} ${p_import[$n]} ${p_version[$n]:-} ${p_path[$n]:-}"
		if [ -n "${p_path[$n]:-}" ]; then hash_tree "${p_path[$n]}"; fi
	done
}
hash=$(key_input | sha256sum | cut -c1-12)
dir=$CACHE/golangci/$gcl_version-$hash
bin=$dir/$name

if [ -x "$bin" ]; then
	log "golangci-lint $gcl_version with the plugins of $config: cached in $bin"
	echo "$bin"
	exit 0
fi

mkdir -p "$CACHE/golangci" || die "cannot create the cache directory $CACHE/golangci"
# One build at a time per cache directory (make test and make golangci may race).
if command -v flock >/dev/null; then
	exec 9>"$CACHE/golangci/.lock"
	if ! flock -n 9; then
		log "another build is running in $CACHE/golangci; waiting for it"
		flock 9
	fi
	if [ -x "$bin" ]; then
		log "built by the other run: $bin"
		echo "$bin"
		exit 0
	fi
fi

work=$dir/build
rm -rf "$work"
mkdir -p "$work" || die "cannot create $work"
cd "$work"
# The wrapper must not inherit flags meant for another module (-mod=vendor
# or -mod=readonly would refuse to resolve its requirements).
export GOFLAGS="-mod=mod -buildvcs=false"
export GOWORK=off

log "building golangci-lint $gcl_version with the plugins of $config into $bin (cold: a few minutes)"
log "wrapper module: $work"

log "downloading github.com/golangci/golangci-lint/v2@$gcl_version from the module proxy"
dl=$("$GO" mod download -json "github.com/golangci/golangci-lint/v2@$gcl_version" 2>&1) || {
	printf '%s\n' "$dl" | sed -n 's/^[[:space:]]*"Error": //p' >&2
	unavailable "cannot download github.com/golangci/golangci-lint/v2@$gcl_version (is the Go module proxy reachable? GOPROXY=$("$GO" env GOPROXY))"
}
gcl_gomod=$(printf '%s\n' "$dl" | sed -n 's/^[[:space:]]*"GoMod": "\(.*\)",\{0,1\}$/\1/p')
[ -f "$gcl_gomod" ] || die "go mod download did not report golangci-lint's go.mod"
go_directive=$(awk '$1 == "go" { print $2; exit }' "$gcl_gomod")

# go.mod: golangci-lint at the release, each plugin as custom adds it.
{
	echo "module ctrllint.local/golangci-lint-custom"
	echo
	echo "go $go_directive"
	echo
	echo "require github.com/golangci/golangci-lint/v2 $gcl_version"
	for n in $plugins; do
		if [ -n "${p_path[$n]:-}" ]; then
			echo "require ${p_module[$n]} v0.0.0-00010101000000-000000000000"
			echo "replace ${p_module[$n]} => ${p_path[$n]}"
		else
			echo "require ${p_module[$n]} ${p_version[$n]}"
		fi
	done
} >go.mod
cp "$here/main.go.tmpl" main.go
# plugins.go: what golangci-lint custom writes into cmd/golangci-lint.
{
	echo "// Code generated by hack/golangci/build.sh from $(basename "$config"). DO NOT EDIT."
	echo
	echo "package main"
	echo
	echo "import ("
	for n in $plugins; do echo "	_ \"${p_import[$n]}\""; done
	echo ")"
} >plugins.go

log "resolving modules (go mod tidy; the first run downloads golangci-lint's dependencies)"
if ! "$GO" mod tidy >"$work/tidy.log" 2>&1; then
	cat "$work/tidy.log" >&2
	# A module that cannot be fetched is the environment; anything else
	# (an import that does not resolve in a local plugin) is a bug.
	if grep -Eq 'dial tcp|no such host|connection refused|i/o timeout|proxyconnect|TLS handshake|module lookup disabled|GOPROXY=off|unexpected EOF|: 50[0-9] |Service Unavailable' "$work/tidy.log"; then
		unavailable "cannot download golangci-lint's dependencies (is the Go module proxy reachable? GOPROXY=$("$GO" env GOPROXY))"
	fi
	die "go mod tidy failed in the wrapper module $work (see above)"
fi

# The version string custom stamps: the release, then -custom-gcl- and a
# hash of the plugins. golangci-lint salts its analysis cache with it, so a
# changed plugin does not reuse the findings of the old one.
log "compiling (go build)"
ldflags="-s -w -X 'main.version=$gcl_version-custom-gcl-$hash' -X 'main.date=$(date -u +%Y-%m-%dT%H:%M:%SZ)'"
"$GO" build -ldflags "$ldflags" -o "$work/$name" . || die "building the custom golangci-lint failed (see the compiler output above)"
"$work/$name" --version >&2 || die "the built binary does not run"

mv -f "$work/$name" "$bin.tmp.$$" && mv -f "$bin.tmp.$$" "$bin" || die "cannot install the binary into $dir"
log "done: $bin"

# Keep the three newest builds: each source change makes a new one.
ls -1dt "$CACHE"/golangci/v2.*-*/ 2>/dev/null | tail -n +4 | while read -r old; do
	rm -rf "$old"
done
echo "$bin"
