#!/usr/bin/env bash
# Builds the app with its UI embedded and drives it through tauri-driver under Xvfb, inside a
# private D-Bus session with an unlocked keyring. Screenshots land in target/e2e-screenshots/.
set -euo pipefail
cd "$(dirname "$0")/.."

npm --prefix ui run build
# custom-protocol embeds ui/dist; without it the binary would look for the dev server.
cargo build -p sightline --features custom-protocol --locked
# The standalone sandbox that *.live.e2e.ts specs point the app at, as if it were the service.
cargo build -p sightline-sandbox --bin sightline-sandbox --locked
# The local RFC 3161 authority (`openssl ts -reply` over HTTP) the signed-evidence spec stamps
# against; test-only, so behind a feature the demo sandbox is built without.
cargo build -p sightline-sandbox --features test-tsa --bin sightline-test-tsa --locked
rm -rf target/e2e-screenshots

export SIGHTLINE_APP="$PWD/target/debug/sightline"
scripts/with-keyring.sh xvfb-run --auto-servernum --server-args="-screen 0 1440x900x24" \
  npm --prefix tests run e2e
