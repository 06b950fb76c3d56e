#!/usr/bin/env bash
# Installs what Sightline needs to build, run and test on Debian or Ubuntu, skipping what is there.
set -euo pipefail
cd "$(dirname "$0")/.."

TAURI_DRIVER_VERSION=2.1.0
NODE_MIN=20.19.0

# Tauri's WebKitGTK stack, plus what the tests use: WebKitWebDriver, Xvfb, a D-Bus session and
# GNOME Keyring as a real Secret Service.
DEBIAN_PACKAGES=(
  build-essential pkg-config curl file libssl-dev libxdo-dev librsvg2-dev
  libwebkit2gtk-4.1-dev libayatana-appindicator3-dev libdbus-1-dev
  webkit2gtk-driver xvfb xauth dbus dbus-x11 gnome-keyring
)

as_root() {
  if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi
}

install_debian_packages() {
  command -v dpkg-query >/dev/null || {
    echo "Not a Debian-based system: install the packages listed in README.md by hand." >&2
    return 0
  }
  local missing=()
  for package in "${DEBIAN_PACKAGES[@]}"; do
    dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q 'install ok installed' || missing+=("$package")
  done
  if [ ${#missing[@]} -gt 0 ]; then
    echo "==> Installing Debian packages: ${missing[*]}"
    as_root apt-get update -q
    as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${missing[@]}"
  fi
}

version_at_least() { # $1 >= $2, both dotted
  [ "$(printf '%s\n%s\n' "$2" "$1" | sort -V | head -n1)" = "$2" ]
}

check_node() {
  if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
    echo "==> Installing Node.js and npm from Debian"
    as_root apt-get update -q
    as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -q nodejs npm
  fi
  local have
  have=$(node --version | sed 's/^v//')
  if ! version_at_least "$have" "$NODE_MIN"; then
    echo "Node.js $have is too old: Sightline's UI tools need $NODE_MIN or newer (see README.md)." >&2
    exit 1
  fi
}

check_rust() {
  if ! command -v cargo >/dev/null; then
    echo "Rust is missing: install it with rustup (see README.md), then run make again." >&2
    exit 1
  fi
}

# npm ci only when the lock file changed since the last install.
install_npm_packages() {
  local dir=$1
  if [ ! -f "$dir/node_modules/.package-lock.json" ] || [ "$dir/package-lock.json" -nt "$dir/node_modules/.package-lock.json" ]; then
    echo "==> Installing npm packages in $dir"
    npm ci --prefix "$dir" --no-audit --no-fund
  fi
}

install_tauri_driver() {
  # tauri-driver has no --version flag: ask cargo which version it installed.
  if ! cargo install --list | grep -qx "tauri-driver v$TAURI_DRIVER_VERSION:"; then
    echo "==> Installing tauri-driver $TAURI_DRIVER_VERSION"
    cargo install tauri-driver --version "$TAURI_DRIVER_VERSION" --locked
  fi
}

install_debian_packages
check_rust
check_node
install_npm_packages ui
if [ "${1:-}" != "--app-only" ]; then
  install_npm_packages tests
  install_tauri_driver
fi
