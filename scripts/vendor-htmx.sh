#!/bin/sh
# Re-vendor htmx from the npm registry at the pinned version and check its hash.
# Usage: scripts/vendor-htmx.sh   (to move the pin, change both lines below)
set -eu
VERSION=2.0.8
SHA256=22283ef68cb7545914f0a88a1bdedc7256a703d1d580c1d255217d0a50d31313

here=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
(cd "$work" && npm pack --silent "htmx.org@$VERSION" >/dev/null && tar xzf htmx.org-*.tgz)
echo "$SHA256  $work/package/dist/htmx.min.js" | sha256sum -c -
cp "$work/package/dist/htmx.min.js" "$here/static/vendor/htmx.min.js"
cp "$work/package/LICENSE" "$here/static/vendor/htmx.LICENSE"
echo "htmx $VERSION vendored into static/vendor/"
