#!/usr/bin/env bash
# The .deb as a user gets it: makes it (from the debug build the end-to-end suite has just made,
# so this costs a link and the bundling, not a second build), installs it with apt, runs the
# smoke spec against the installed /usr/bin/sightline, validates the desktop entry and the
# AppStream metadata, then purges the package and checks that nothing of it is left.
# The installed app's screenshots land in target/e2e-screenshots/installed/.
set -euo pipefail
cd "$(dirname "$0")/.."

as_root() {
  if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi
}
installed() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q 'install ok installed'; }

scripts/package.sh --debug
deb=$(ls target/packages/*.deb)
package=$(dpkg-deb -f "$deb" Package)

if installed "$package"; then
  if [ -z "${CI:-}" ]; then
    echo "The $package package is already installed here: this test would replace and remove it, so it is skipped (CI runs it)."
    exit 0
  fi
  as_root apt-get remove --purge -y -q "$package"
fi

# What of the package's paths the system had before (shared folders such as /usr/bin): after the
# purge, exactly these may remain.
declare -A existed=()
while read -r path; do
  [ -e "$path" ] && existed[$path]=1
done < <(dpkg-deb --fsys-tarfile "$deb" | tar -t | sed -E 's#^\.?/?#/#; s#(.)/$#\1#' | grep -vx '/')

echo "==> Installing $deb with apt"
as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "$PWD/$deb"
trap 'installed "$package" && as_root apt-get remove --purge -y -q "$package"' EXIT
mapfile -t files < <(dpkg -L "$package" | grep -v "^/\.$")
binary=$(printf '%s\n' "${files[@]}" | grep -m1 '^/usr/bin/')
desktop_entry=$(printf '%s\n' "${files[@]}" | grep -m1 '^/usr/share/applications/.*\.desktop$')
metainfo=$(printf '%s\n' "${files[@]}" | grep -m1 '^/usr/share/metainfo/.*\.xml$')

echo "==> desktop-file-validate $desktop_entry"
desktop-file-validate "$desktop_entry"
echo "==> appstreamcli validate $metainfo"
appstreamcli validate --no-net "$metainfo"

echo "==> The smoke spec against the installed $binary"
screenshots="$PWD/target/e2e-screenshots/installed"
rm -rf "$screenshots"
SIGHTLINE_APP="$binary" SIGHTLINE_E2E_SCREENSHOTS="$screenshots" \
  scripts/with-keyring.sh xvfb-run --auto-servernum --server-args="-screen 0 1440x900x24" \
  npm --prefix tests run e2e -- --spec ./specs/smoke.e2e.ts

echo "==> Purging $package"
as_root apt-get remove --purge -y -q "$package"
trap - EXIT
if dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -qv 'not-installed'; then
  echo "dpkg still knows $package after the purge: $(dpkg-query -W -f='${Status}' "$package")" >&2
  exit 1
fi
left=()
for path in "${files[@]}"; do
  if [ -z "${existed[$path]:-}" ] && { [ -e "$path" ] || [ -L "$path" ]; }; then left+=("$path"); fi
done
if [ ${#left[@]} -gt 0 ]; then
  printf 'Left behind after the purge: %s\n' "${left[@]}" >&2
  exit 1
fi
echo "Purged: none of the package's ${#files[@]} paths is left."
