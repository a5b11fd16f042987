#!/usr/bin/env bash
# Builds the kube-apiserver and etcd that the end-to-end tests run (envtest,
# KUBEBUILDER_ASSETS) from the Go module proxy alone: no GitHub, no Google
# storage, no container registry. See docs/e2e.md.
#
# k8s.io/kubernetes replaces its k8s.io/* staging modules with ./staging/...,
# so `go install k8s.io/kubernetes/cmd/kube-apiserver@v1.37.2` is refused; and
# etcd's server module has replace directives of its own. Both are therefore
# built from a throwaway wrapper module that requires k8s.io/kubernetes and
# replaces each staging module with its published v0.X.Y release. The list of
# staging modules and the etcd version are read from kubernetes' own go.mod.
#
# The binaries go to a cache directory outside the clone:
#   ${CTRLLINT_CACHE:-$HOME/.cache/ctrllint}/kube-<version>/bin/{kube-apiserver,etcd}
# When both exist the script returns at once. Progress goes to stderr; the
# only line on stdout is the bin directory, so
#   KUBEBUILDER_ASSETS=$(hack/e2e-binaries.sh)
# works. A cold build costs ~10 CPU-minutes, 3-4 GB of Go build cache and
# ~700 MB of module cache.
set -euo pipefail

KUBE_VERSION=1.37.2
GO=${GO:-go}
CACHE=${CTRLLINT_CACHE:-$HOME/.cache/ctrllint}
BIN=$CACHE/kube-$KUBE_VERSION/bin

# The staging modules are published as v0.<minor>.<patch> for v1.<minor>.<patch>.
STAGING_VERSION=v0.${KUBE_VERSION#*.}

start=$SECONDS
log() { echo "e2e-binaries: [$((SECONDS - start))s] $*" >&2; }
die() { echo "e2e-binaries: FAILED: $*" >&2; exit 1; }

have_binaries() { [ -x "$BIN/kube-apiserver" ] && [ -x "$BIN/etcd" ]; }

if have_binaries; then
	log "kube-apiserver and etcd $KUBE_VERSION already built in $BIN"
	echo "$BIN"
	exit 0
fi

command -v "$GO" >/dev/null || die "the go command ($GO) is not on PATH"
mkdir -p "$CACHE" || die "cannot create the cache directory $CACHE"

# One build at a time per cache directory (make test and make e2e may race).
if command -v flock >/dev/null; then
	exec 9>"$CACHE/.kube-$KUBE_VERSION.lock"
	if ! flock -n 9; then
		log "another build is running in $CACHE; waiting for it"
		flock 9
	fi
	if have_binaries; then
		log "kube-apiserver and etcd $KUBE_VERSION built by the other run in $BIN"
		echo "$BIN"
		exit 0
	fi
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/ctrllint-kube-$KUBE_VERSION.XXXXXX") || die "cannot create a temporary directory"
trap 'rm -rf "$work"' EXIT
cd "$work"

# The wrapper module must not inherit flags meant for another module
# (-mod=vendor, -mod=readonly would refuse to resolve its requirements).
export GOFLAGS="-mod=mod -buildvcs=false"
export GOWORK=off

log "building kube-apiserver and etcd $KUBE_VERSION into $BIN (cold: ~10 minutes on 2 cores)"
log "wrapper module: $work"
"$GO" mod init ctrllint.local/kube-binaries >/dev/null 2>&1 || die "go mod init failed in $work"

log "downloading k8s.io/kubernetes@v$KUBE_VERSION from the module proxy"
dl=$("$GO" mod download -json "k8s.io/kubernetes@v$KUBE_VERSION") \
	|| { printf '%s\n' "$dl" | sed -n 's/^[[:space:]]*"Error": //p' >&2; die "cannot download k8s.io/kubernetes@v$KUBE_VERSION (is the Go module proxy reachable? GOPROXY=$("$GO" env GOPROXY))"; }
kube_gomod=$(printf '%s\n' "$dl" | sed -n 's/^[[:space:]]*"GoMod": "\(.*\)",\{0,1\}$/\1/p')
[ -f "$kube_gomod" ] || die "go mod download did not report kubernetes' go.mod"

# Staging modules: `k8s.io/X => ./staging/src/k8s.io/X`, in a replace block or
# on a single replace line.
staging=$(awk '
	$1 == "replace" { $1 = ""; $0 = $0 }
	$2 == "=>" && $3 ~ /^\.\/staging\// { print $1 }
' "$kube_gomod")
[ -n "$staging" ] || die "found no staging replacements in $kube_gomod"
etcd_version=$(awk '$1 == "go.etcd.io/etcd/server/v3" { print $2; exit }' "$kube_gomod")
[ -n "$etcd_version" ] || die "kubernetes' go.mod ($kube_gomod) does not pin go.etcd.io/etcd/server/v3"
go_directive=$(awk '$1 == "go" { print $2; exit }' "$kube_gomod")
log "$(echo "$staging" | wc -l) staging modules -> $STAGING_VERSION; etcd $etcd_version; go $go_directive"

# The wrapper takes kubernetes' go and godebug lines, so the binaries behave
# as the released ones do.
{
	echo "module ctrllint.local/kube-binaries"
	echo
	echo "go $go_directive"
	grep '^godebug ' "$kube_gomod" || true
	echo
	echo "require ("
	echo "	k8s.io/kubernetes v$KUBE_VERSION"
	echo "	go.etcd.io/etcd/server/v3 $etcd_version"
	echo ")"
	echo
	echo "replace ("
	for m in $staging; do echo "	$m => $m $STAGING_VERSION"; done
	echo ")"
} >go.mod

out=$work/bin
mkdir -p "$out"
# What kubernetes' own build stamps (hack/lib/version.sh), so /version reports
# the release rather than v0.0.0-master.
minor=${KUBE_VERSION#*.}; minor=${minor%%.*}
ldflags="-X k8s.io/component-base/version.gitVersion=v$KUBE_VERSION"
ldflags+=" -X k8s.io/component-base/version.gitMajor=${KUBE_VERSION%%.*}"
ldflags+=" -X k8s.io/component-base/version.gitMinor=$minor"
ldflags+=" -X k8s.io/component-base/version.gitTreeState=clean"
ldflags+=" -X k8s.io/client-go/pkg/version.gitVersion=v$KUBE_VERSION"
ldflags+=" -X k8s.io/client-go/pkg/version.gitMajor=${KUBE_VERSION%%.*}"
ldflags+=" -X k8s.io/client-go/pkg/version.gitMinor=$minor"

log "resolving modules (first run downloads ~600 MB)"
"$GO" get "k8s.io/kubernetes/cmd/kube-apiserver@v$KUBE_VERSION" "go.etcd.io/etcd/server/v3@$etcd_version" >/dev/null 2>"$work/get.log" \
	|| { cat "$work/get.log" >&2; die "cannot resolve the wrapper module's dependencies (is the Go module proxy reachable? GOPROXY=$("$GO" env GOPROXY))"; }

# build NAME GO-BUILD-ARGS... compiles with -v and says every 30 seconds how
# many of the program's packages are compiled: a cold build is many silent
# minutes otherwise. Compiler output goes to stderr as it comes.
build() {
	local name=$1 pkg=${*: -1}
	shift
	local total
	total=$("$GO" list -deps "$pkg" 2>/dev/null | wc -l) || total='?'
	log "compiling $name: $total packages at most (cached ones are not compiled again)"
	local status=0 n=0 last=$SECONDS line
	while IFS= read -r line; do
		case $line in
		build-failed:*) status=1 ;;
		'' | *' '* | '#'* | *:*) echo "$line" >&2 ;; # the compiler's output, not a package path
		*) n=$((n + 1)) ;;
		esac
		if ((SECONDS - last >= 30)); then
			log "compiling $name: $n of $total packages compiled"
			last=$SECONDS
		fi
	done < <("$GO" build -v "$@" 2>&1 >/dev/null || echo "build-failed: exit $?")
	log "compiling $name: $n packages compiled"
	return $status
}

build kube-apiserver -ldflags "$ldflags" -o "$out/kube-apiserver" k8s.io/kubernetes/cmd/kube-apiserver \
	|| die "building kube-apiserver failed (see the compiler output above)"
build "etcd $etcd_version" -o "$out/etcd" go.etcd.io/etcd/server/v3 \
	|| die "building etcd failed (see the compiler output above)"

"$out/kube-apiserver" --version >&2 || die "the built kube-apiserver does not run"
"$out/etcd" --version >&2 || die "the built etcd does not run"

# Install both or neither: a half-filled bin directory must not look cached.
mkdir -p "$BIN"
mv -f "$out/etcd" "$BIN/etcd.tmp.$$" && mv -f "$out/kube-apiserver" "$BIN/kube-apiserver.tmp.$$" \
	&& mv -f "$BIN/etcd.tmp.$$" "$BIN/etcd" && mv -f "$BIN/kube-apiserver.tmp.$$" "$BIN/kube-apiserver" \
	|| die "cannot install the binaries into $BIN"
log "done: $BIN"
echo "$BIN"
