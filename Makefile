# Sightline: `make run` opens the app, `make test` runs every check, `make package` makes the
# Linux packages. Each installs what is missing first.
SHELL := /bin/bash
.DEFAULT_GOAL := run
.PHONY: run test package ui-build

# Where scripts/install-deps.sh puts what the system lacks: Node.js from the npm registry when the
# system's is too old, and Rust from rustup when cargo is missing.
export PATH := $(CURDIR)/.tools/node/bin:$(or $(CARGO_HOME),$(HOME)/.cargo)/bin:$(PATH)

ui-build:
	@scripts/install-deps.sh --app-only
	npm --prefix ui run build

# A release build with the UI embedded; demo mode starts by itself when no key is stored.
run: ui-build
	cargo run --release -p sightline --features custom-protocol

test:
	@scripts/install-deps.sh
	@scripts/test-all.sh

# The .deb and .rpm of a release build, in target/packages/.
package:
	@scripts/install-deps.sh --package
	@scripts/package.sh
