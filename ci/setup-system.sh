#!/usr/bin/env bash
# Debian packages the harness needs on a fresh machine: xz to unpack the
# nodejs source package, a C++ toolchain and python3 for node-gyp.
set -euo pipefail
need=()
command -v xz >/dev/null || need+=(xz-utils)
command -v g++ >/dev/null || need+=(g++)
command -v make >/dev/null || need+=(make)
command -v python3 >/dev/null || need+=(python3)
command -v apt-get >/dev/null || { echo "setup: apt-get is required (Debian)" >&2; exit 1; }
if [ ${#need[@]} -gt 0 ]; then
  sudo=""; [ "$(id -u)" -eq 0 ] || sudo="sudo -n"
  echo "setup: installing ${need[*]}" >&2
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${need[@]}"
fi
