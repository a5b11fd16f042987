# The gopls proxy (ctrllint gopls, internal/goplsproxy, docs/editors.md):
# tested against the real gopls, which hack/gopls/build.sh builds once from
# the Go module proxy into ~/.cache/ctrllint/gopls-<version>/ (CI needs only
# the module proxy), with a scripted client and with a headless Neovim.
# `make test` runs it; it says "gopls-e2e: SKIPPED: <reason>" when gopls
# cannot be downloaded or Neovim cannot be had.
.PHONY: gopls gopls-e2e

TEST_EXTRA += gopls-e2e

# Builds (or finds) the gopls the tests use; prints its path.
gopls:
	@GO="$(GO)" hack/gopls/build.sh

gopls-e2e: testdata
	@GO="$(GO)" hack/gopls/check.sh
