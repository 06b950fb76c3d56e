#!/usr/bin/env bash
# Runs a command inside a private D-Bus session with its own unlocked GNOME Keyring, so tests use
# a real Secret Service without touching the user's keychain. Usage: scripts/with-keyring.sh CMD...
set -euo pipefail

if [ -z "${SIGHTLINE_KEYRING_SESSION:-}" ]; then
  export SIGHTLINE_KEYRING_SESSION=1
  exec dbus-run-session -- "$0" "$@"
fi

keyring_home=$(mktemp -d "${TMPDIR:-/tmp}/sightline-keyring.XXXXXX")
trap 'kill "${GNOME_KEYRING_PID:-}" 2>/dev/null || true; rm -rf "$keyring_home"' EXIT
mkdir -m 700 "$keyring_home/runtime"
# The daemon keeps its keyrings and control socket here, away from the user's own.
export XDG_DATA_HOME="$keyring_home/data" XDG_RUNTIME_DIR="$keyring_home/runtime"

# --unlock reads the login password from stdin and creates an unlocked login keyring with it;
# without this step the Secret Service answers every request with "locked" (NoStorageAccess).
eval "$(printf 'sightline-tests' | gnome-keyring-daemon --unlock --components=secrets)"
eval "$(gnome-keyring-daemon --start --components=secrets)"
export GNOME_KEYRING_CONTROL GNOME_KEYRING_PID

"$@"
