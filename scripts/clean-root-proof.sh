#!/usr/bin/env bash
# Proves the README's two commands on a really fresh Debian 12: makes a clean root with
# debootstrap (Debian's packages plus make and git, nothing else), clones this repository's HEAD
# into it, and runs `make run` (until the window reports its page loaded) then `make test` there
# as root, printing each step's time. Needs root, debootstrap, Xvfb and Debian's mirror.
# Usage: sudo scripts/clean-root-proof.sh [folder]   (default target/clean-root; it is replaced)
# Not part of `make test`: a first build from nothing takes most of an hour.
set -euo pipefail
cd "$(dirname "$0")/.."

root=$(realpath -m "${1:-target/clean-root}")
mirror=${DEBIAN_MIRROR:-http://deb.debian.org/debian}
log_dir="$root.logs"
[ "$(id -u)" -eq 0 ] || { echo "Run as root: debootstrap and chroot need it." >&2; exit 1; }
command -v debootstrap >/dev/null || { echo "Install debootstrap first (apt-get install debootstrap)." >&2; exit 1; }
command -v Xvfb >/dev/null || { echo "Install xvfb first: make run opens a window." >&2; exit 1; }

declare -a timings=()
step_started=0
begin() { step_started=$(date +%s); printf '\n==> %s\n' "$1"; }
finish() {
  local took=$(($(date +%s) - step_started))
  timings+=("$(printf '%-46s %4dm%02ds  %s' "$1" $((took / 60)) $((took % 60)) "$2")")
}
report() {
  printf '\n==> Clean-root proof, finished %s\n' "$(date -u +%FT%TZ)"
  printf '%s\n' "${timings[@]}"
}

mounted=()
xvfb_pid=
cleanup() {
  [ -n "$xvfb_pid" ] && kill "$xvfb_pid" 2>/dev/null || true
  for ((i = ${#mounted[@]} - 1; i >= 0; i--)); do umount -l "${mounted[$i]}" 2>/dev/null || true; done
}
trap 'cleanup; report' EXIT
bind() { mkdir -p "${*: -1}"; mount "$@" && mounted+=("${*: -1}"); }

for path in "$root"/{proc,sys,dev/pts,dev/shm,dev,tmp/.X11-unix}; do
  mountpoint -q "$path" 2>/dev/null && umount -l "$path"
done
# Never delete through a mount that is still there (the root's /dev is the host's own).
if awk '{print $2}' /proc/mounts | grep -q "^$root/"; then
  echo "Something is still mounted under $root: unmount it first." >&2
  exit 1
fi
rm -rf "$root" "$log_dir"
mkdir -p "$root" "$log_dir"

begin "debootstrap Debian 12 (minbase + make, git)"
debootstrap --variant=minbase --include=make,git,ca-certificates bookworm "$root" "$mirror" >"$log_dir/debootstrap.log" 2>&1
cat >"$root/etc/apt/sources.list" <<SOURCES
deb $mirror bookworm main
deb $mirror bookworm-updates main
deb ${mirror%/debian}/debian-security bookworm-security main
SOURCES
cp /etc/resolv.conf "$root/etc/resolv.conf"
# What Debian's installer writes and debootstrap does not: without it "localhost" does not resolve.
printf '127.0.0.1\tlocalhost\n::1\t\tlocalhost ip6-localhost ip6-loopback\n' >"$root/etc/hosts"
# Certificate authorities this machine added (a network's TLS proxy, say) are trusted in the root
# too, or nothing there could reach the registries this machine reaches.
if compgen -G "/usr/local/share/ca-certificates/*.crt" >/dev/null; then
  cp /usr/local/share/ca-certificates/*.crt "$root/usr/local/share/ca-certificates/"
  chroot "$root" update-ca-certificates >>"$log_dir/debootstrap.log" 2>&1
fi
finish "debootstrap" "ok"

bind -t proc proc "$root/proc"
bind -t sysfs sys "$root/sys"
bind --bind /dev "$root/dev"
bind -t devpts devpts "$root/dev/pts"
bind -t tmpfs tmpfs "$root/dev/shm"

begin "clone the repository's HEAD"
git clone -q --no-local "$PWD" "$root/root/sightline"
finish "git clone" "$(git -C "$root/root/sightline" rev-parse --short HEAD)"

# A display for `make run`'s window: the host's Xvfb, its socket shared into the root.
display=:$((90 + RANDOM % 9))
Xvfb "$display" -screen 0 1440x900x24 -nolisten tcp >"$log_dir/xvfb.log" 2>&1 &
xvfb_pid=$!
sleep 1
bind --bind /tmp/.X11-unix "$root/tmp/.X11-unix"

# The root's environment: a new root user's, plus the variables that point TLS clients at the
# system's certificate store, when this machine sets them.
root_env=(HOME=/root TERM=dumb LANG=C.UTF-8 PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin)
for name in NODE_EXTRA_CA_CERTS SSL_CERT_FILE SSL_CERT_DIR CURL_CA_BUNDLE GIT_SSL_CAINFO; do
  [ -n "${!name:-}" ] && root_env+=("$name=${!name}")
done
in_root() { chroot "$root" /usr/bin/env -i "${root_env[@]}" "$@"; }

begin "make run (until the window's page has loaded)"
run_log="$log_dir/make-run.log"
setsid chroot "$root" /usr/bin/env -i "${root_env[@]}" DISPLAY="$display" SIGHTLINE_STARTUP_PROBE=1 \
  bash -c 'cd /root/sightline && make run' >"$run_log" 2>&1 &
run_pid=$!
outcome="failed: see $run_log"
while kill -0 "$run_pid" 2>/dev/null; do
  if grep -qs 'startup-probe: ready' "$run_log"; then
    outcome="window ready"
    kill -- "-$run_pid" 2>/dev/null || true
    break
  fi
  sleep 2
done
wait "$run_pid" 2>/dev/null || true
finish "make run" "$outcome"
[ "$outcome" = "window ready" ] || { tail -30 "$run_log"; exit 1; }

begin "make test"
if in_root bash -c 'cd /root/sightline && CI=true make test' >"$log_dir/make-test.log" 2>&1; then
  finish "make test" "passed"
else
  finish "make test" "failed: see $log_dir/make-test.log"
  tail -40 "$log_dir/make-test.log"
  exit 1
fi
# Each step of make test, from its log's "==>" lines, is in $log_dir/make-test.log.
