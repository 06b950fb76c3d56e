# Sightline: `make run` opens the app, `make test` runs every check. Both install what is missing.
SHELL := /bin/bash
.DEFAULT_GOAL := run
.PHONY: run test ui-build

ui-build:
	@scripts/install-deps.sh --app-only
	npm --prefix ui run build

# A release build with the UI embedded; demo mode starts by itself when no key is stored.
run: ui-build
	cargo run --release -p sightline --features custom-protocol

test:
	@scripts/install-deps.sh
	@scripts/test-all.sh
