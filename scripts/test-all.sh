#!/usr/bin/env bash
# Every check `make test` runs, in order, stopping at the first failure.
set -euo pipefail
cd "$(dirname "$0")/.."

step() { printf '\n==> %s\n' "$*"; }

step "Rust formatting"
cargo fmt --all --check

step "Clippy (warnings are errors)"
cargo clippy --workspace --all-targets --locked -- -D warnings

step "Rust tests (real SQLite, the sandbox on loopback, a real Secret Service)"
scripts/with-keyring.sh cargo test --workspace --locked
if [ -n "${CI:-}" ]; then
  # CI builds once, on a disk that may be small: the test binaries (2.6 GB) are not used again.
  # What the app's build below needs (libraries, proc macros) stays.
  find target/debug/deps -maxdepth 1 -type f -executable ! -name '*.so' -delete
fi

step "TypeScript bindings exported from Rust are committed and current"
if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
  if [ -n "$(git status --porcelain -- ui/src/lib/bindings)" ]; then
    git status --porcelain -- ui/src/lib/bindings
    echo "ui/src/lib/bindings changed when the tests exported them: commit the new bindings." >&2
    exit 1
  fi
fi

step "UI type checks (svelte-check, tsc)"
npm --prefix ui run check
npx --prefix tests tsc --noEmit -p tests/tsconfig.json

step "UI unit tests (Vitest)"
npm --prefix ui test

step "End-to-end: the real app under WebDriver"
scripts/e2e.sh

step "The .deb, installed: smoke spec on /usr/bin/sightline, desktop entry and AppStream checks, purge"
scripts/test-package.sh
