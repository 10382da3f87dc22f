# benchlens: `make run` shows the sample library, `make test` runs the checks, `make package`
# builds the Linux desktop package (dist/benchlens.tar.xz) and `make package-test` installs it
# into a temporary prefix and starts it under Xvfb. They install what cgo (SQLite) and Fyne
# need when it is missing (Debian, root or sudo); `make test` also PostgreSQL.

GO        ?= go
BIN       := bin/benchlens
DEMO_DB   := .benchlens/demo.db
# fonts-wqy-microhei: a CJK font with Latin letters, so charts in Chinese draw their labels.
DEB_PKGS  := gcc pkg-config libgl1-mesa-dev xorg-dev fonts-wqy-microhei
# fyne package, from the fyne.io/tools module (go run fetches it through the module proxy once).
FYNE      := $(GO) run fyne.io/tools/cmd/fyne@v1.7.4
# The build date, and the commit for trees the go tool cannot stamp (a git worktree).
STAMP     = -X benchlens/internal/version.buildDate=$(shell date -u +%Y-%m-%dT%H:%M:%SZ) \
            -X benchlens/internal/version.commit=$(shell git rev-parse HEAD 2>/dev/null)
SUDO      := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

.PHONY: all deps build run test bench fuzz package package-test clean

all: build

# deps installs the C tool chain and libraries once; later runs only check.
deps:
	@missing=""; for p in $(DEB_PKGS); do \
		dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q 'install ok installed' || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
		echo "installing:$$missing"; \
		$(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq --no-install-recommends $$missing; \
	fi
	@command -v $(GO) >/dev/null || { echo "Go is needed: https://go.dev/doc/install"; exit 1; }

build: deps
	$(GO) build -ldflags "$(STAMP)" -o $(BIN) ./cmd/benchlens

# run loads the samples into its own demo library (only this one: the app never adds samples
# to a library) and opens the desktop app on it; without a display it prints the library.
run: build
	@$(BIN) --db $(DEMO_DB) demo >/dev/null
	@if [ -n "$$DISPLAY$$WAYLAND_DISPLAY" ] || [ "$$(uname)" = Darwin ]; then \
		$(BIN) --db $(DEMO_DB); \
	else \
		echo "no display: printing the sample library instead of opening the app"; \
		$(BIN) --db $(DEMO_DB) runs; \
	fi

# The store, library and CLI tests start a throw-away PostgreSQL cluster (as nobody when run as
# root), so the tests need the postgresql package; BENCHLENS_TEST_POSTGRES makes a missing
# PostgreSQL a failure here rather than a skip. The desktop app's tests run once more under the
# race detector (about 1.5 min; cgo's race build needs gcc, from deps): its work runs off the
# UI thread and must hand every result back through onUI. The 30 min limit (go test's default
# is 10) is for slow or busy machines: -race ./gui/ took 9 min on 2 cores at load average 20.
test: DEB_PKGS += postgresql
test: deps
	$(GO) vet ./...
	BENCHLENS_TEST_POSTGRES=required $(GO) test -timeout 30m ./...
	$(GO) test -race -timeout 30m ./gui/

# bench prints each figure of issue 29 beside its peer, over BENCH_RUNS rounds (default 5) run
# in turn so a busy machine slows them alike, as min / median wall time, CPU time and ratio:
# the 112 MB import and the 100 MB trace against the Python/pandas pipeline, a bare json.load
# and orjson when installed (scripts/bench-import.sh, bench-trace.sh), then the Go benchmarks of
# the figures without a Python peer against their targets (scripts/bench-targets.sh). Each
# pass line says PASS or FAIL against the issue's target; every part runs even when one
# fails. BENCH_OLD=REV times that revision's tree too, alternately with this one.
bench: deps
	@status=0; \
	for s in bench-import bench-trace bench-targets; do \
		echo "==== scripts/$$s.sh"; BENCH_RUNS=$${BENCH_RUNS:-5} scripts/$$s.sh || status=1; echo; \
	done; \
	exit $$status

# FUZZMIN caps how hard Go's fuzzer minimises each new input: grown from kilobyte-sized real
# seeds, each took up to a minute to shrink (the default 60 s) and the result and trace targets
# stalled; 5 s still stalled them. With 100 runs per minimisation, 30 s give 0.21 M executions
# of FuzzParseFile and 0.49 M of the trace target, against 0.11 M and a stall. Every Fuzz
# function of the module is listed here (20 s each on 2 busy cores: none stalls, the slowest,
# FuzzIdentify, still 400 executions/s).
FUZZMIN ?= -fuzzminimizetime 100x

fuzz: deps
	$(GO) test -run '^$$' -fuzz FuzzDecode -fuzztime 60s $(FUZZMIN) ./importers/jsonx/
	$(GO) test -run '^$$' -fuzz '^FuzzNumberMatchesStrconv$$' -fuzztime 30s $(FUZZMIN) ./importers/jsonx/
	$(GO) test -run '^$$' -fuzz '^FuzzSkip$$' -fuzztime 30s $(FUZZMIN) ./importers/jsonx/
	for t in FuzzParseFile FuzzLabJSON FuzzNumpy FuzzEvalScopeDB FuzzPlanJSON; do $(GO) test -run '^$$' -fuzz "^$$t\$$" -fuzztime 60s $(FUZZMIN) ./importers/result/ || exit 1; done
	for t in FuzzReadArchive FuzzReadFSArchive FuzzParseManifest FuzzIdentify FuzzPhaseList; do $(GO) test -run '^$$' -fuzz "^$$t\$$" -fuzztime 60s $(FUZZMIN) ./importers/ || exit 1; done
	for p in serverlog utilisation trace environment nsys; do $(GO) test -run '^$$' -fuzz FuzzParse -fuzztime 60s $(FUZZMIN) ./importers/$$p/ || exit 1; done
	$(GO) test -run '^$$' -fuzz '^FuzzScanEvent$$' -fuzztime 60s $(FUZZMIN) ./importers/trace/
	$(GO) test -run '^$$' -fuzz '^FuzzQuotedAsContains$$' -fuzztime 30s $(FUZZMIN) ./importers/format/
	$(GO) test -run '^$$' -fuzz '^FuzzDecodeChunk$$' -fuzztime 30s $(FUZZMIN) ./store/
	$(GO) test -run '^$$' -fuzz '^FuzzDecodePoint$$' -fuzztime 30s $(FUZZMIN) ./store/
	$(GO) test -run '^$$' -fuzz '^FuzzSortFloats$$' -fuzztime 30s $(FUZZMIN) ./analysis/stats/

# package builds dist/benchlens.tar.xz with fyne package: the binary, a .desktop entry, the
# icon and metadata of FyneApp.toml, and a Makefile that installs them (make install
# PREFIX=…). FyneApp.toml is restored afterwards: fyne package bumps its build number.
package: deps
	mkdir -p dist
	$(GO) build -ldflags "-s -w $(STAMP)" -o dist/benchlens ./cmd/benchlens
	cp FyneApp.toml dist/FyneApp.toml.orig
	$(FYNE) package --target linux --executable dist/benchlens --name benchlens; \
		status=$$?; mv dist/FyneApp.toml.orig FyneApp.toml; \
		[ $$status = 0 ] && mv benchlens.tar.xz dist/ && rm dist/benchlens

# package-test installs the package into a temporary prefix and starts the installed app under
# Xvfb (display PACKAGE_TEST_DISPLAY, default :97), keeping a screenshot in dist/.
package-test: package
	scripts/package-test.sh dist/benchlens.tar.xz dist/installed.png

clean:
	rm -rf bin .benchlens dist
