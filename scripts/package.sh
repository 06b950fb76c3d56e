#!/usr/bin/env bash
# Makes Sightline's Linux packages (.deb and .rpm) with Tauri's bundler and puts them in
# target/packages/. Usage: scripts/package.sh [--debug]
#   --debug  packages the debug build instead of a release build (what `make test` installs: it
#            reuses the build the end-to-end suite just made, so the package test stays cheap).
# SIGHTLINE_SCREENSHOTS_URL, when set, is where docs/screenshots/ is published: the AppStream
# metadata then lists those screenshots (AppStream takes only web addresses for them); unset,
# the metadata goes without.
# No AppImage: Tauri's bundler downloads linuxdeploy and its plugins from GitHub to make one, and
# no package registry provides them.
set -euo pipefail
cd "$(dirname "$0")/.."

profile=release
build_flags=()
if [ "${1:-}" = "--debug" ]; then
  profile=debug
  build_flags=(--debug)
fi

# The metainfo the bundle section of src-tauri/tauri.conf.json installs, screenshots filled in.
metainfo=packaging/app.sightline.desktop.metainfo.xml
mkdir -p target/packaging
if [ -n "${SIGHTLINE_SCREENSHOTS_URL:-}" ]; then
  sed "s#@SCREENSHOTS_URL@#${SIGHTLINE_SCREENSHOTS_URL%/}#g" "$metainfo" >target/packaging/app.sightline.desktop.metainfo.xml
else
  sed '/<screenshots>/,/<\/screenshots>/d' "$metainfo" >target/packaging/app.sightline.desktop.metainfo.xml
fi

rm -rf "target/$profile/bundle/deb" "target/$profile/bundle/rpm"
# --ci: no prompts. The UI is built by beforeBuildCommand; the binary gets the custom-protocol
# feature (the UI embedded), as `make run` builds it.
(cd src-tauri && cargo tauri build "${build_flags[@]}" --ci --bundles deb,rpm -- --locked)

rm -rf target/packages
mkdir -p target/packages
cp "target/$profile"/bundle/deb/*.deb "target/$profile"/bundle/rpm/*.rpm target/packages/
echo "==> Packages in target/packages/:"
ls -l target/packages/
