#!/bin/sh
# One-time machine setup for tools/node/full-tree.ts (a complete Node v24
# build from Debian's DFSG source): the bookworm packages it uses. Run by
# hand as root; `make test` and CI never run it (CI never builds Node).
#
#   sh tools/node/full-tree-setup.sh
#
# Needs deb-src entries for forky and sid (apt-get source fetches the
# upstream tarballs of the libraries Debian's nodejs tarball strips). No sid
# binary entries: libuv1-dev and libsimdjson-dev are fetched from the pool by
# URL (curl) and unpacked into the prefix, never installed.
set -eu

# npm only where there is none: a nodejs package that brings its own npm
# (NodeSource's) conflicts with Debian's.
npm=npm
if command -v npm >/dev/null 2>&1; then npm=; fi
apt-get update
DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
  build-essential g++ gcc make cmake ninja-build pkgconf patch xz-utils bzip2 git ca-certificates \
  python3 python3-jinja2 python3-packaging tcl ccache dpkg-dev \
  curl libssl-dev zlib1g-dev \
  $npm

if ! grep -rqs '^Types:.*deb-src' /etc/apt/sources.list.d/ && ! grep -qs '^deb-src' /etc/apt/sources.list; then
  echo "full-tree-setup: no deb-src entries: add forky and sid deb-src sources so apt-get source works" >&2
  exit 1
fi
echo "full-tree-setup: done; next: node tools/node/full-tree.ts provision"
