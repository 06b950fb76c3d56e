#!/usr/bin/env bash
# Measures the app's screens against a large database and a 10,000-post list in the real webview
# (tauri-driver + WebKitWebDriver under Xvfb, inside a private D-Bus session with an unlocked
# keyring, like scripts/e2e.sh) and prints the figures. It asserts nothing about time.
#
# Seeds target/perf-data/demo.db first (100,000 history rows over 365 days through the store's
# API) unless a seed of the same size from the last 24 hours is there. Does not build the app:
# point SIGHTLINE_APP at a debug build with the UI embedded (default target/debug/sightline),
# e.g. `npm --prefix ui run build && cargo build -p sightline --features custom-protocol`.
#
# Knobs: SIGHTLINE_PERF_HISTORY (100000), SIGHTLINE_PERF_DAYS (365), SIGHTLINE_PERF_RUNS (10),
# SIGHTLINE_PERF_SCROLL_MS (5000). The app inherits the environment, so WebKitGTK's own switches
# (e.g. WEBKIT_DISABLE_COMPOSITING_MODE=1) can be compared. tauri-driver listens on port 4444,
# as in the e2e suite: one run at a time per machine.
# Figures are also kept in target/perf-results/ (text and JSON), with the load average sampled
# every 10 s during the run.
set -euo pipefail
cd "$(dirname "$0")/.."

history=${SIGHTLINE_PERF_HISTORY:-100000}
days=${SIGHTLINE_PERF_DAYS:-365}
data_dir=target/perf-data
db=$data_dir/demo.db
results=target/perf-results

export SIGHTLINE_APP="${SIGHTLINE_APP:-$PWD/target/debug/sightline}"
if [ ! -x "$SIGHTLINE_APP" ]; then
  echo "No app binary at $SIGHTLINE_APP: build one with the UI embedded" \
    "(npm --prefix ui run build && cargo build -p sightline --features custom-protocol)" \
    "or set SIGHTLINE_APP." >&2
  exit 1
fi

# The seeded days end when the seed ran, so "Last year" only lines up with a recent seed.
stamp=$data_dir/seed-args
if [ -f "$db" ] && [ "$(cat "$stamp" 2>/dev/null)" = "$history $days" ] \
  && [ -z "$(find "$db" -mmin +1440)" ]; then
  echo "Reusing $db (seeded $(date -r "$db" '+%F %T'))"
else
  rm -f "$db" "$db-wal" "$db-shm" "$stamp"
  mkdir -p "$data_dir"
  cargo run --release --locked -p sightline-store --example seed -- \
    "$db" --history "$history" --days "$days"
  echo "$history $days" >"$stamp"
fi
export SIGHTLINE_PERF_DB="$PWD/$db"

mkdir -p "$results"
echo "app: $SIGHTLINE_APP ($(date -r "$SIGHTLINE_APP" '+%F %T'))"
echo "load before: $(uptime)"
# The machine may be shared: keep the load average next to the figures.
(while true; do uptime; sleep 10; done) >"$results/uptime.log" &
sampler=$!
trap 'kill "$sampler" 2>/dev/null || true' EXIT

scripts/with-keyring.sh xvfb-run --auto-servernum --server-args="-screen 0 1440x900x24" \
  npm --prefix tests run perf

echo "load after: $(uptime)"
echo "load during the run (1-minute average, every 10 s):" \
  "$(awk -F'load average: ' '{split($2, a, ", "); printf "%s ", a[1]}' "$results/uptime.log")"
echo "figures kept in $results/"
