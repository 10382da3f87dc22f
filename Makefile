# benchlens: `make run` shows the sample library, `make test` runs the checks.
# Both install what cgo (SQLite) and Fyne need when it is missing (Debian, root or sudo).

GO        ?= go
BIN       := bin/benchlens
DEMO_DB   := .benchlens/demo.db
DEB_PKGS  := gcc pkg-config libgl1-mesa-dev xorg-dev
SUDO      := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

.PHONY: all deps build run test bench fuzz clean

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
	$(GO) build -o $(BIN) ./cmd/benchlens

# run opens the desktop app on the sample library (loaded into it on first start); without a
# display it loads the samples and prints the library instead.
run: build
	@if [ -n "$$DISPLAY$$WAYLAND_DISPLAY" ] || [ "$$(uname)" = Darwin ]; then \
		$(BIN) --db $(DEMO_DB); \
	else \
		echo "no display: printing the sample library instead of opening the app"; \
		$(BIN) --db $(DEMO_DB) demo && $(BIN) --db $(DEMO_DB) runs; \
	fi

test: deps
	$(GO) vet ./...
	$(GO) test ./...

# bench times the import of a 112 MB detailed result (see scripts/bench-import.sh for the
# side-by-side comparison with a Python/pandas pipeline).
bench: deps
	$(GO) test -run '^$$' -bench . -benchtime 5x ./library/ ./gui/ ./analysis/report/

fuzz: deps
	$(GO) test -run '^$$' -fuzz FuzzDecode -fuzztime 60s ./importers/jsonx/
	$(GO) test -run '^$$' -fuzz FuzzParseFile -fuzztime 60s ./importers/
	for p in serverlog utilisation trace; do $(GO) test -run '^$$' -fuzz FuzzParse -fuzztime 60s ./importers/$$p/; done

clean:
	rm -rf bin .benchlens
