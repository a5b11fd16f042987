#!/usr/bin/env bash
# Tests hack/precommit/ctrllint-staged for real, as a plain git hook and
# under the pre-commit framework: a throwaway git repository holding the
# bundled example controller twice (example and example2, each with
# findings, compiled against the real client-go from the module cache), a
# package without findings (clean), a testdata directory that does not
# compile, and a module of its own (sub). A commit must analyse the
# packages of its staged files and nothing else. The framework part needs
# Debian's pre-commit and says SKIPPED without it.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
bin=$root/bin/ctrllint
hook=$root/hack/precommit/ctrllint-staged
fail() {
	echo "precommit-staged: FAILED: $*" >&2
	exit 1
}
[ -x "$bin" ] || fail "$bin not built"

dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
export GOPROXY=off GOFLAGS=-mod=mod GOWORK=off CTRLLINT_CACHE=$dir/cache
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1
export GIT_AUTHOR_NAME=ci GIT_AUTHOR_EMAIL=ci@example.invalid GIT_COMMITTER_NAME=ci GIT_COMMITTER_EMAIL=ci@example.invalid
# ctrllint as the hook runs it, recording each command line.
cat >"$dir/ctrllint" <<SH
#!/bin/sh
echo "\$*" >>"$dir/args"
exec "$bin" "\$@"
SH
chmod +x "$dir/ctrllint"
export CTRLLINT=$dir/ctrllint

repo=$dir/repo
mkdir -p "$repo"
cd "$repo"
git init -q
cp "$root/testdata/src/current/go.mod" "$root/testdata/src/current/go.sum" .
cp -r "$root/testdata/src/current/example" example
cp -r "$root/testdata/src/current/example" example2
mkdir clean testdata sub
printf 'package clean\n\nfunc Fine() {}\n' >clean/clean.go
printf 'package broken\n\nfunc F() { undefined() }\n' >testdata/broken.go
printf 'module example.com/sub\n\ngo 1.26\n' >sub/go.mod
printf 'package sub\n\nfunc Fine() {}\n' >sub/sub.go
git add -A
git commit -q -m fixture

# commit_with MESSAGE: commit what is staged with the hook; its output in
# $dir/out, its command lines in $dir/args; returns the commit's status.
commit_with() {
	: >"$dir/args"
	git commit -q -m "$1" >"$dir/out" 2>&1
}
# touch_go FILE: a change to FILE, staged.
touch_go() {
	echo "// $RANDOM" >>"$1"
	git add "$1"
}
expect_args() {
	[ "$(cat "$dir/args")" = "$1" ] || { cat "$dir/out"; fail "$2: ctrllint ran with \"$(cat "$dir/args")\", want \"$1\""; }
}

cp "$hook" .git/hooks/pre-commit

touch_go example2/sync.go
if commit_with "example2"; then
	fail "plain hook: the commit passed with findings in example2"
fi
expect_args "./example2" "plain hook, example2 staged"
grep -q '^example2/.*(listerbypass)$' "$dir/out" || { cat "$dir/out"; fail "plain hook: example2's findings not shown"; }
! grep -q '^example/' "$dir/out" || { cat "$dir/out"; fail "plain hook: findings of example, which nothing staged touches"; }

git reset -q --hard
touch_go clean/clean.go
touch_go testdata/broken.go
commit_with "clean" || { cat "$dir/out"; fail "plain hook: the commit of clean and testdata failed"; }
expect_args "./clean" "plain hook, clean and testdata staged"

# A module of its own is analysed in its directory; then a package that
# does not compile fails the commit (exit 2).
touch_go sub/sub.go
commit_with "sub" || { cat "$dir/out"; fail "plain hook: the commit of sub failed"; }
expect_args "-C sub ." "plain hook, sub staged"
printf 'package sub\n\nfunc G() { undefined() }\n' >sub/broken.go
git add sub/broken.go
touch_go clean/clean.go
if commit_with "broken sub"; then
	fail "plain hook: the commit passed with code that does not compile"
fi
expect_args "./clean
-C sub ." "plain hook, clean and sub staged"
grep -q "undefined" "$dir/out" || { cat "$dir/out"; fail "plain hook: no compiler error shown"; }
git reset -q --hard

# A deleted file: its package is analysed, with what is left of it.
git rm -q example/claim.go
if commit_with "delete"; then
	fail "plain hook: the commit passed with findings in example"
fi
expect_args "./example" "plain hook, a file of example deleted"
git reset -q --hard
rm .git/hooks/pre-commit

if ! command -v pre-commit >/dev/null; then
	echo "precommit-staged: OK as a plain git hook; pre-commit framework SKIPPED: pre-commit is not installed (apt-get install pre-commit)"
	exit 0
fi
# The hook as the framework gets it: from a repository holding this
# checkout's .pre-commit-hooks.yaml and script, at a commit (rev).
hooks=$dir/hooks
mkdir -p "$hooks/hack/precommit"
cp "$root/.pre-commit-hooks.yaml" "$hooks"
cp "$hook" "$hooks/hack/precommit"
git -C "$hooks" init -q
git -C "$hooks" add -A
git -C "$hooks" commit -q -m hooks
cat >.pre-commit-config.yaml <<YAML
repos:
  - repo: $hooks
    rev: $(git -C "$hooks" rev-parse HEAD)
    hooks:
      - id: ctrllint-staged
        args: [-disable, tombstone, --]
YAML
git add .pre-commit-config.yaml
git commit -q -m pre-commit
export PRE_COMMIT_HOME=$dir/pre-commit
: >"$dir/args"
touch_go example2/sync.go
touch_go example2/controller.go
if pre-commit run >"$dir/out" 2>&1; then
	cat "$dir/out"
	fail "pre-commit: the hook passed with findings in example2"
fi
expect_args "-disable tombstone ./example2" "pre-commit, example2 staged"
grep -q '^example2/.*(listerbypass)$' "$dir/out" || { cat "$dir/out"; fail "pre-commit: example2's findings not shown"; }
! grep -q '(tombstone)$' "$dir/out" || { cat "$dir/out"; fail "pre-commit: the hook's args (-disable tombstone) were not passed"; }
git reset -q --hard
: >"$dir/args"
touch_go clean/clean.go
pre-commit run >"$dir/out" 2>&1 || { cat "$dir/out"; fail "pre-commit: the hook failed on clean"; }
expect_args "-disable tombstone ./clean" "pre-commit, clean staged"
echo "precommit-staged: OK (as a plain git hook and under pre-commit, only the packages of the staged files are analysed)"
