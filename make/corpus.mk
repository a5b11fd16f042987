# The real-world corpus (hack/corpus, docs/corpus.md): pinned releases of
# kubernetes, sample-controller, controller-runtime, cert-manager, the CSI
# sidecars, prometheus-operator, cluster-api and knative, materialised from
# the module proxy into a cache outside the clone, analysed, and compared
# with the checked-in triage. Fails on a new, disappeared or regressed
# finding, and on any crash. CTRLLINT_SKIP_CORPUS=1 skips it in `make test`.
.PHONY: corpus corpus-if-enabled corpus-docs

TEST_EXTRA += corpus-if-enabled

corpus: build
	$(GO) run ./hack/corpus run -ctrllint $(BIN)

corpus-if-enabled:
	@case "$(CTRLLINT_SKIP_CORPUS)" in ""|0) $(MAKE) --no-print-directory corpus;; *) echo "corpus: SKIPPED: CTRLLINT_SKIP_CORPUS=$(CTRLLINT_SKIP_CORPUS)";; esac

# Renders docs/corpus.md and the README's precision table from
# hack/corpus/triage.json (a test fails when they are stale).
corpus-docs:
	$(GO) run ./hack/corpus render -o docs/corpus.md -readme README.md
