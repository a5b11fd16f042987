# golangci-lint with ctrllint as a module plugin (plugin/, docs/golangci-lint.md).

GOLANGCI_BUILD := hack/golangci/build.sh

.PHONY: golangci golangci-lint

TEST_EXTRA += golangci

# Builds golangci-lint with the plugins of .custom-gcl.yml linked in, from
# the Go module proxy (no GitHub), into a cache outside the clone; prints the
# binary's path. The offline stand-in for `golangci-lint custom`.
golangci-lint:
	@$(GOLANGCI_BUILD)

# The plugin under that binary: .golangci-example.yml and variants of it on
# the fixtures, against their expectations. Says "golangci: SKIPPED: ..." and
# passes when the binary cannot be built for want of the module proxy;
# CTRLLINT_SKIP_GOLANGCI=1 skips it.
golangci: testdata
	@GO=$(GO) hack/golangci/check.sh
