# The real-bug benchmark (hack/realbugs, docs/corpus.md): historical bugs of
# ctrllint's classes fixed upstream, each materialised from the module proxy
# at the last release with the bug and the first with the fix, into a cache
# outside the clone (~/.cache/ctrllint/realbugs, or $CTRLLINT_REALBUGS). A
# bug is found when its analyzer reports inside its function at the buggy
# release; the fixed release must be clean. The run fails when an outcome
# differs from hack/realbugs/realbugs.json.
#
# `make realbugs-all` runs every bug; `make test` runs `make realbugs`, the
# bugs marked ci, chosen to fit CI's time budget. CTRLLINT_SKIP_REALBUGS=1
# skips that.
.PHONY: realbugs realbugs-all

TEST_EXTRA += realbugs

realbugs: build
	@case "$(CTRLLINT_SKIP_REALBUGS)" in ""|0) ;; *) echo "realbugs: SKIPPED: CTRLLINT_SKIP_REALBUGS=$(CTRLLINT_SKIP_REALBUGS)"; exit 0;; esac; \
	$(GO) run ./hack/realbugs -ctrllint $(BIN) -ci

realbugs-all: build
	$(GO) run ./hack/realbugs -ctrllint $(BIN)
