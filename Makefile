# ctrllint's build and test entry points. `make test` is what CI runs
# (.ci/run); it needs only Go and the module proxy.

GO       ?= go
BIN      := bin/ctrllint
FIXTURES := $(wildcard testdata/src/*/go.mod)

.PHONY: all build example test testdata vet unit lint docs bench clean

all: build

build:
	$(GO) build -o $(BIN) ./cmd/ctrllint

# The bundled example: a small controller with real findings, compiled
# against the real client-go. ctrllint exits 1 when it reports findings.
example: build testdata
	@cd testdata/src/current && status=0; ../../../$(BIN) ./example/... || status=$$?; \
	  if [ $$status -ne 1 ]; then echo "expected findings (exit 1), got exit $$status" >&2; exit 1; fi

# The fixtures are modules of their own that require the real client-go and
# controller-runtime; analysistest loads them with GOPROXY=off, so their
# modules must be in the module cache first.
testdata:
	@for m in $(FIXTURES); do (cd $$(dirname $$m) && $(GO) mod download) || exit 1; done

vet:
	$(GO) vet ./...

# Analyzer tests shell out to the go command to load fixtures, which the test
# cache cannot see: -count=1 keeps a changed fixture from hiding behind a
# cached pass.
unit: testdata
	$(GO) test -count=1 ./...

# Dogfood: ctrllint on its own repository reports nothing.
lint: build
	./$(BIN) ./...

test: vet unit lint example

docs:
	$(GO) test ./analyzers -run TestDocsUpToDate -update

bench: testdata
	$(GO) test -run '^$$' -bench . -benchmem ./...

clean:
	rm -rf bin
