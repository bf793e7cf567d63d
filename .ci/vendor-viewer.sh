#!/usr/bin/env bash
# Vendors the viewer's graph library from npm into the package that embeds
# it: cytoscape at the pinned version, checked against the pinned sha512
# of its npm tarball (the registry's dist.integrity), extracted into
# cmd/internal/viewer/assets/vendor/ (gitignored). The tarball is kept in
# .tools/viewer. Without npm it warns and exits 0: the build goes on, and
# that binary's viewer says it was built without its library.
# Usage: .ci/vendor-viewer.sh   (from anywhere in the repo)
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
TOOLS=${SYNAPTIC_TOOLS:-$ROOT/.tools}
PKG=cytoscape
VERSION=3.35.0
INTEGRITY=sha512-sMvBIXiGMnhkCaWz2R06FwF/27MNlS+Tqvi17foO9UhnUg3XGZccKjxsvEqQFAQYMSSZmN5SxYzUYlQ0DOJJ3g==
DEST=$ROOT/cmd/internal/viewer/assets/vendor/cytoscape.min.js
TGZ=$TOOLS/viewer/$PKG-$VERSION.tgz

integrity() { echo "sha512-$(openssl dgst -sha512 -binary "$1" | base64 -w0)"; }

if [ ! -f "$TGZ" ] || [ "$(integrity "$TGZ")" != "$INTEGRITY" ]; then
	if ! command -v npm >/dev/null; then
		echo "vendor-viewer: npm not on PATH: building without the viewer's graph library ($PKG@$VERSION); 'synaptic view' will say so" >&2
		rm -f "$DEST"
		exit 0
	fi
	mkdir -p "$TOOLS/viewer"
	echo "vendor-viewer: fetching $PKG@$VERSION from npm into $TOOLS/viewer" >&2
	(cd "$TOOLS/viewer" && npm pack --silent "$PKG@$VERSION" >/dev/null)
fi
got=$(integrity "$TGZ")
if [ "$got" != "$INTEGRITY" ]; then
	echo "vendor-viewer: $TGZ has integrity $got, expected $INTEGRITY: refusing to embed it" >&2
	exit 1
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
tar -xzf "$TGZ" -C "$tmp" package/dist/cytoscape.min.js
cmp -s "$tmp/package/dist/cytoscape.min.js" "$DEST" 2>/dev/null || cp "$tmp/package/dist/cytoscape.min.js" "$DEST"
