#!/usr/bin/env bash
# Runs ctrllint as a pre-commit hook for real: a throwaway git repository
# holding the bundled example controller (compiled against the real
# client-go from the module cache), a .pre-commit-config.yaml that runs the
# built binary, and `pre-commit run`. The hook must fail on the example's
# findings, pass once they are gone, and fail on code that does not compile.
# Needs Debian's pre-commit; says SKIPPED without it.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
bin=$root/bin/ctrllint
[ -x "$bin" ] || { echo "precommit: FAILED: $bin not built" >&2; exit 1; }
if ! command -v pre-commit >/dev/null; then
	if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
		(apt-get update -qq && apt-get install -y -qq pre-commit) >/dev/null 2>&1 || true
	fi
fi
if ! command -v pre-commit >/dev/null; then
	echo "precommit: SKIPPED: pre-commit is not installed (apt-get install pre-commit)"
	exit 0
fi

dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
cd "$dir"
git init -q
git config user.email ci@example.invalid
git config user.name ci
cp "$root/testdata/src/current/go.mod" "$root/testdata/src/current/go.sum" .
cp -r "$root/testdata/src/current/example" .
mkdir -p ctl
cat > ctl/ctl.go <<'GO'
package ctl

func Fine() {}
GO
export GOPROXY=off GOFLAGS=-mod=mod
cat > .pre-commit-config.yaml <<YAML
repos:
  - repo: local
    hooks:
      - id: ctrllint
        name: ctrllint
        entry: $bin
        args: ["./..."]
        language: system
        pass_filenames: false
        types: [go]
YAML
git add -A
export PRE_COMMIT_HOME="$dir/.cache"
if pre-commit run --all-files >"$dir/findings.log" 2>&1; then
	cat "$dir/findings.log"
	echo "precommit: FAILED: the hook passed on the example's findings" >&2
	exit 1
fi
grep -q "(tombstone)" "$dir/findings.log" || { cat "$dir/findings.log"; echo "precommit: FAILED: findings not shown" >&2; exit 1; }
git rm -rqf example
if ! pre-commit run --all-files >"$dir/clean.log" 2>&1; then
	cat "$dir/clean.log"
	echo "precommit: FAILED: the hook failed on clean code" >&2
	exit 1
fi
# A package that does not compile is a hook failure too (exit 2).
echo 'package ctl
func Broken() { undefined() }' > ctl/broken.go
git add -A
if pre-commit run --all-files >"$dir/broken.log" 2>&1; then
	cat "$dir/broken.log"
	echo "precommit: FAILED: the hook passed on code that does not compile" >&2
	exit 1
fi
grep -q "undefined" "$dir/broken.log" || { cat "$dir/broken.log"; echo "precommit: FAILED: no loader error shown" >&2; exit 1; }
echo "precommit: OK (the hook fails on findings and on code that does not compile, passes on clean code)"
