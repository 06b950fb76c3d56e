#!/usr/bin/env bash
# The monitors soak: ten monitors at a one-minute interval (through the test-only
# minimum-interval hook, see tests/soak/wdio.soak.conf.ts) plus an AI answer every minute, against a standalone
# sandbox, for SOAK_MINUTES minutes (default 30; `scripts/soak-monitors.sh 5` for a short one).
# Samples the app's process-tree PSS each minute; at the end checks that no X request was sent
# twice and that the app's spend equals what the sandbox billed, and prints the figures.
# Not part of `make test`. Needs what the e2e suite needs (tauri-driver, WebKitWebDriver, Xvfb).
set -euo pipefail
cd "$(dirname "$0")/.."

minutes="${1:-${SOAK_MINUTES:-30}}"
# tauri-driver listens on port 4444: another end-to-end run in this network namespace holds it.
if (exec 3<>/dev/tcp/127.0.0.1/4444) 2>/dev/null; then
  echo "soak: another end-to-end run holds tauri-driver (port 4444); try again when it is done" >&2
  exit 1
fi

npm --prefix ui run build
# The release build is what people run; its memory is what the target is about.
cargo build --release -p sightline --features custom-protocol --locked
cargo build -p sightline-sandbox --bin sightline-sandbox --locked

# A copy of its own: a rebuild during the soak would replace target/release/sightline, and the
# samples find the app by its executable's path.
bin_dir="$(mktemp -d)"
trap 'rm -rf "$bin_dir"' EXIT
cp target/release/sightline "$bin_dir/sightline"

export SOAK_MINUTES="$minutes"
export SIGHTLINE_APP="$bin_dir/sightline"
scripts/with-keyring.sh xvfb-run --auto-servernum --server-args="-screen 0 1440x900x24" \
  npm --prefix tests run soak
