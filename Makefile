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

# run loads the built-in samples into a fresh library and shows it.
run: build
	rm -f $(DEMO_DB) $(DEMO_DB)-wal $(DEMO_DB)-shm
	$(BIN) --db $(DEMO_DB) demo
	$(BIN) --db $(DEMO_DB) runs

test: deps
	$(GO) vet ./...
	$(GO) test ./...

# bench times the import of a 112 MB detailed result (see scripts/bench-import.sh for the
# side-by-side comparison with a Python/pandas pipeline).
bench: deps
	$(GO) test -run '^$$' -bench . -benchtime 5x ./library/

fuzz: deps
	for t in FuzzDecode; do $(GO) test -run '^$$' -fuzz $$t -fuzztime 60s ./importers/jsonx/; done
	$(GO) test -run '^$$' -fuzz FuzzParseFile -fuzztime 60s ./importers/

clean:
	rm -rf bin .benchlens
