# ctrllint's build and test entry points. `make test` is what CI runs
# (.ci/run); it needs only Go and the module proxy.

GO       ?= go
BIN      := bin/ctrllint
FIXTURES := $(wildcard testdata/src/*/go.mod)

# Besides the root module (ctrllint), two modules of our own: the reference
# runtime (runtime/, what a controller author imports) and its comparison with
# controller-runtime (hack/runtimebench). Each is built and tested with its own
# go.mod, as a consumer builds it: a go.work (make work) would merge their
# requirements, and would swallow the fixture modules under testdata, which are
# not in it. So the targets here run with GOWORK=off.
export GOWORK := off
MODULES := runtime hack/runtimebench
# $(call in-modules,CMD): CMD in each of MODULES, stopping at the first failure.
in-modules = @set -e; for m in $(MODULES); do echo "(cd $$m && $(1))"; (cd $$m && $(1)); done

.PHONY: all build version example test testdata vet unit lint docs bench bench-micro bench-compare clean fuzz fuzz-smoke \
	e2e e2e-binaries e2e-if-possible e2e-smoke work

all: build

# The version `ctrllint -V` prints comes from the build info, which the go
# command stamps from git: the tag at HEAD, or a pseudo-version naming the
# commit, +dirty for uncommitted changes (docs/release.md). -buildvcs=auto
# overrides a GOFLAGS=-buildvcs=false; BUILDVCS=false turns stamping off, as
# does a git that cannot read the checkout (go build would fail on it). Where
# .git is a file (a git worktree or submodule) the go command stamps nothing,
# so hack/version prints the same version from git and -X stamps it.
BUILDVCS ?= auto

build:
	@vcs=$(BUILDVCS); stamp=; \
	if [ "$$vcs" != false ] && ! git status --porcelain >/dev/null 2>&1; then vcs=false; fi; \
	if [ "$$vcs" != false ] && [ ! -d .git ] && v=$$($(GO) run ./hack/version); then \
	  stamp="-ldflags=-X=main.version=$$v"; fi; \
	echo "$(GO) build -buildvcs=$$vcs $$stamp -o $(BIN) ./cmd/ctrllint"; \
	$(GO) build -buildvcs=$$vcs $$stamp -o $(BIN) ./cmd/ctrllint

# make build's binary names its version, not "devel" (outside a git checkout,
# or one git cannot read, there is none to name: skipped).
version: build
	@if ! git status --porcelain >/dev/null 2>&1; then echo "version: SKIPPED: no git checkout that git can read here"; exit 0; fi; \
	out=$$(./$(BIN) -V) || exit 1; \
	case "$$out" in "ctrllint version v"*) echo "version: PASS ($$out)";; \
	*) echo "version: FAILED: make build's binary prints \"$$out\", want a version from git" >&2; exit 1;; esac

# The bundled example (testdata/src/current/example): a small controller,
# compiled against the real client-go and controller-runtime, with one
# finding of every analyzer; then the diff of what -fix changes, applied to a
# copy. hack/example.sh fails unless ctrllint exits 1 (findings) and -fix
# changes something. It needs the fixture's modules, not their build:
# hack/example.sh has ctrllint type-check the example's dependencies from
# source (CTRLLINT_FROM_SOURCE=1), so that nothing but ctrllint is compiled,
# and keep their export data for the -fix run (docs/performance.md).
example: build
	@cd testdata/src/current && $(GO) mod download
	@CTRLLINT=$(BIN) hack/example.sh

# The fixtures are modules of their own that require the real client-go and
# controller-runtime; analysistest loads them with GOPROXY=off, so their
# modules must be in the module cache first. The tests also load them with
# dependencies from export data: compiling that here, once, keeps a cold run
# from compiling client-go inside several test binaries at once, each on a
# go test timeout (on a loaded 2-core machine one waited 9.5 minutes).
testdata:
	@for m in $(FIXTURES); do \
	  d=$$(dirname $$m); echo "testdata: $$d: modules and export data"; \
	  (cd $$d && $(GO) mod download && GOFLAGS=-mod=mod $(GO) list -export -deps -test ./... >/dev/null) || exit 1; \
	done

# The command, its packages and their tests build for Windows and macOS
# too (the hack/ tools are Linux-only): vetted for both here.
PORTABLE := ./cmd/... ./internal/... ./analyzers/... ./plugin/...

vet:
	$(GO) vet ./...
	$(call in-modules,$(GO) vet ./...)
	GOOS=windows $(GO) vet $(PORTABLE)
	GOOS=darwin $(GO) vet $(PORTABLE)

# Analyzer tests shell out to the go command to load fixtures, which the test
# cache cannot see: -count=1 keeps a changed fixture from hiding behind a
# cached pass.
# TEST_TIMEOUT bounds each test binary: the slowest package (the analyzer
# tests, which load both fixture modules many times) takes a few minutes on
# a quiet 2-core machine once testdata has compiled the fixtures, and over
# 20 with other builds running (cmd/ctrllint: 22 minutes measured so).
TEST_TIMEOUT ?= 30m

unit: testdata
	$(GO) test -count=1 -timeout $(TEST_TIMEOUT) ./...
	$(call in-modules,$(GO) test -count=1 -timeout $(TEST_TIMEOUT) ./...)
	cd runtime && $(GO) test -count=1 -timeout $(TEST_TIMEOUT) -race ./...

# Dogfood: ctrllint on its own repository reports nothing.
lint: build
	./$(BIN) ./...
	$(call in-modules,$(CURDIR)/$(BIN) ./...)

# Integrations (golangci-lint plugin, editor server, ...) live in make/*.mk
# and add their checks to TEST_EXTRA.
TEST_EXTRA :=
-include make/*.mk

test: vet unit lint example version fuzz-smoke e2e-if-possible $(TEST_EXTRA)

# End-to-end tests: the runtime's example controller, and its leader election
# under failure (two replicas), against a real kube-apiserver and etcd (envtest). hack/e2e-binaries.sh builds both from the
# Go module proxy into a cache outside the clone (~10 minutes the first time,
# then instant) and prints their directory. See docs/e2e.md.
E2E_BINARIES := hack/e2e-binaries.sh

e2e-binaries:
	@$(E2E_BINARIES)

e2e:
	@assets=$$($(E2E_BINARIES)) && \
	  KUBEBUILDER_ASSETS=$$assets $(GO) test -count=1 -timeout $(TEST_TIMEOUT) -tags e2e -run 'E2E$$' ./hack/e2e/

# The control plane alone: starts, lists namespaces, stops.
e2e-smoke:
	@assets=$$($(E2E_BINARIES)) && \
	  KUBEBUILDER_ASSETS=$$assets $(GO) test -count=1 -timeout $(TEST_TIMEOUT) -tags e2e -run 'Smoke$$' ./hack/e2e/

# `make test` runs the e2e tests whenever the binaries can be built; when they
# cannot (no module proxy, a build failure) it says so and goes on. Once they
# exist, a failing e2e test fails `make test`. CTRLLINT_SKIP_E2E=1 skips them.
e2e-if-possible:
	@case "$(CTRLLINT_SKIP_E2E)" in ""|0) ;; *) echo "e2e: SKIPPED: CTRLLINT_SKIP_E2E=$(CTRLLINT_SKIP_E2E)"; exit 0;; esac; \
	log=$$(mktemp) && trap 'rm -f "$$log" "$$log.rc"' EXIT && \
	{ $(E2E_BINARIES) 2>&1 >/dev/null; echo $$? >"$$log.rc"; } | tee "$$log"; \
	rc=$$(cat "$$log.rc"); \
	if [ "$$rc" != 0 ]; then \
	  reason=$$(sed -n 's/^e2e-binaries: FAILED: //p' "$$log" | tail -n 1); \
	  echo "e2e: SKIPPED: $${reason:-$(E2E_BINARIES) exited $$rc}"; exit 0; \
	fi; \
	$(MAKE) --no-print-directory e2e

# The generated docs (analyzers/docs_test.go, analyzers/docsgen_test.go).
docs:
	$(GO) test ./analyzers -run '^(TestDocsUpToDate|TestGeneratedBlocks)$$' -update

# Fuzz what takes arbitrary input: suppression directives, doc.go parsing,
# the golangci-lint plugin's settings, the editor server's frames and
# messages, go vet's unit config, and the output formats (read back). The
# seeds run in `make test` as ordinary tests; `make fuzz` runs each fuzzer
# for FUZZTIME, and `make test` for FUZZ_SMOKE_TIME (fuzz-smoke).
FUZZTIME ?= 30s
# A count, not a duration: with a duration, Go 1.26's fuzzing coordinator
# can report "context deadline exceeded" as a failure when the time runs out
# while a worker is busy (go.dev/issue/75804, fixed in Go 1.27), which made
# make test fail on a loaded machine with no failing input.
FUZZ_SMOKE_TIME ?= 10000x
FUZZ_TARGETS := \
	FuzzParse:./analyzers/internal/directive \
	FuzzParse:./analyzers/internal/manual \
	FuzzParseSettings:./plugin \
	FuzzFrames:./internal/lsp \
	FuzzVetConfig:./cmd/ctrllint \
	FuzzOutputRoundTrip:./cmd/ctrllint \
	FuzzDecodeEntry:./internal/driver/resultcache \
	FuzzEntryRoundTrip:./internal/driver/resultcache

define run-fuzzers
	@set -e; for t in $(FUZZ_TARGETS); do \
	  echo "$(GO) test -run '^$$' -fuzz '^$${t%%:*}$$' -fuzztime $(1) $${t#*:}"; \
	  $(GO) test -run '^$$' -fuzz "^$${t%%:*}\$$" -fuzztime $(1) $${t#*:}; \
	done
endef

fuzz:
	$(call run-fuzzers,$(FUZZTIME))

fuzz-smoke:
	$(call run-fuzzers,$(FUZZ_SMOKE_TIME))

# Benchmarks: the micro-benchmarks (go test -bench: each analyzer on the
# fixtures), then ctrllint side by side with the floor (go/packages loading
# and type-checking, nothing else), go vet, go vet -vettool=ctrllint and
# staticcheck on corpus entries, cold and warm, and the editor server's time
# from save to diagnostics (hack/bench, docs/performance.md). The report is
# printed and written to ~/.cache/ctrllint/bench/bench.md. BENCH_FLAGS are
# hack/bench's flags, e.g. BENCH_FLAGS="-rounds 3 -targets kubernetes".
BENCH_FLAGS ?=

bench: bench-micro bench-compare

bench-micro: testdata
	$(GO) test -run '^$$' -bench . -benchmem ./...
	$(call in-modules,$(GO) test -run '^$$' -bench . -benchmem ./...)

bench-compare: build testdata
	$(GO) run ./hack/bench -ctrllint $(BIN) $(BENCH_FLAGS)

# A workspace of the modules above for an editor (gopls) or a change that
# spans them; not committed. Run the root module's tests with GOWORK=off while
# it exists: the fixture modules under testdata are outside it, and the go
# command refuses to load them from inside a workspace.
work:
	GOWORK= $(GO) work init . $(MODULES)

clean:
	rm -rf bin
