# The real-world corpus (hack/corpus, docs/corpus.md): pinned releases of
# kubernetes, sample-controller, controller-runtime, cert-manager, the CSI
# sidecars, prometheus-operator, cluster-api and knative, materialised from
# the module proxy into a cache outside the clone, analysed with ctrllint's
# default flags (tests included, as a user's first run), and compared
# with the checked-in triage (hack/corpus/triage.json). It fails on a new,
# disappeared or regressed finding, and on any crash or internal error.
#
# `make corpus` runs every entry (about an hour cold on 2 cores, a minute
# warm). `make test` runs CORPUS_CI_ENTRIES, the entries that share their
# dependencies with the fixtures, to stay well inside CI's time budget,
# twice: as usual, and as on a machine that built nothing (-from-source:
# dependencies type-checked from source or decoded from the export data
# ctrllint keeps), which must find the same; CTRLLINT_SKIP_CORPUS=1 skips
# that too.
.PHONY: corpus corpus-ci corpus-docs

CORPUS_CI_ENTRIES ?= kubernetes,sample-controller,controller-runtime,std

TEST_EXTRA += corpus-ci

corpus: build
	$(GO) run ./hack/corpus run -ctrllint $(BIN)

corpus-ci: build
	@case "$(CTRLLINT_SKIP_CORPUS)" in ""|0) ;; *) echo "corpus: SKIPPED: CTRLLINT_SKIP_CORPUS=$(CTRLLINT_SKIP_CORPUS)"; exit 0;; esac; \
	$(GO) run ./hack/corpus run -ctrllint $(BIN) -only $(CORPUS_CI_ENTRIES) && \
	$(GO) run ./hack/corpus run -ctrllint $(BIN) -only $(CORPUS_CI_ENTRIES) -from-source

# Renders docs/corpus.md and the README's precision table from
# hack/corpus/triage.json and the real-bug benchmark's recall from
# hack/realbugs/realbugs.json (a test fails when they are stale).
corpus-docs:
	$(GO) run ./hack/corpus render -o docs/corpus.md -readme README.md
