#!/usr/bin/env bash
# make gopls-e2e: ctrllint gopls against the real gopls, built once from the
# Go module proxy (hack/gopls/build.sh): internal/goplsproxy's tests with a
# scripted client, then a headless Neovim (hack/gopls/e2e.sh).
#
# When gopls cannot be built because the module proxy is out of reach, this
# says "gopls-e2e: SKIPPED: <reason>" and exits 0 (CI, which has the proxy,
# builds it). CTRLLINT_SKIP_GOPLS=1 skips the check.
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.." || exit 1
GO=${GO:-go}

case "${CTRLLINT_SKIP_GOPLS:-}" in
"" | 0) ;;
*) echo "gopls-e2e: SKIPPED: CTRLLINT_SKIP_GOPLS=$CTRLLINT_SKIP_GOPLS"; exit 0 ;;
esac

bin=$(GO=$GO hack/gopls/build.sh)
case $? in
0) ;;
3) echo "gopls-e2e: SKIPPED: gopls could not be downloaded from the module proxy"; exit 0 ;;
*) echo "gopls-e2e: FAILED: building gopls" >&2; exit 1 ;;
esac
CTRLLINT_GOPLS=$bin CTRLLINT_REQUIRE_GOPLS=1 $GO test -count=1 -run 'TestProxy|TestGoplsCrash|TestClientGone|TestCanceled|TestPullDiagnostics' ./internal/goplsproxy && CTRLLINT_GOPLS=$bin CTRLLINT_REQUIRE_GOPLS=1 $GO test -count=1 -run 'TestGopls' ./cmd/ctrllint || exit 1
GO=$GO hack/gopls/e2e.sh "$bin"
