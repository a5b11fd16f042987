# The editor language server (ctrllint lsp, docs/editors.md): its test with
# a real LSP client, a headless Neovim (hack/lsp). `make test` runs it; it
# installs Debian's neovim when it can (as root), and prints
# "lsp: SKIPPED: <reason>" when Neovim cannot be had.
.PHONY: lsp-e2e lsp-deps

TEST_EXTRA += lsp-e2e

lsp-e2e: testdata
	@GO="$(GO)" hack/lsp/e2e.sh

# Installs Neovim or fails: for CI, so that a missing client fails the run
# instead of skipping the test.
lsp-deps:
	@hack/lsp/neovim.sh
