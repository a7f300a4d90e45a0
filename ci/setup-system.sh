#!/usr/bin/env bash
# Debian packages the harness needs on a fresh machine: xz to unpack the
# nodejs source package, a C++ toolchain and python3 for node-gyp.
set -euo pipefail
need=()
command -v xz >/dev/null || need+=(xz-utils)
command -v g++ >/dev/null || need+=(g++)
command -v make >/dev/null || need+=(make)
command -v python3 >/dev/null || need+=(python3)
# The in-tree check of the native binding (tools/node/intree-check.ts):
# ninja for Node's generated build files, nm and git, and the headers the
# DFSG-stripped Node source takes from the system: libuv, OpenSSL and
# simdjson (src/inspector_profiler.h).
command -v ninja >/dev/null || need+=(ninja-build)
command -v nm >/dev/null || need+=(binutils)
command -v git >/dev/null || need+=(git)
[ -e /usr/include/uv.h ] || need+=(libuv1-dev)
[ -e /usr/include/openssl/ssl.h ] || need+=(libssl-dev)
[ -e /usr/include/simdjson.h ] || need+=(libsimdjson-dev)
command -v apt-get >/dev/null || { echo "setup: apt-get is required (Debian)" >&2; exit 1; }
if [ ${#need[@]} -gt 0 ]; then
  sudo=""; [ "$(id -u)" -eq 0 ] || sudo="sudo -n"
  echo "setup: installing ${need[*]}" >&2
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${need[@]}"
fi
# R with ggplot2 and plyr for Node's benchmark/compare.R (`make compare
# ENGINE=node`, test/unit/compare-node.test.ts). Without recommends: 40
# packages, 61 MB to download, 109 MB on disk, ~15 s to install here
# (with recommends apt wants 700 packages and 1.6 GB).
if ! command -v Rscript >/dev/null || [ ! -d /usr/lib/R/site-library/ggplot2 ] || [ ! -d /usr/lib/R/site-library/plyr ]; then
  sudo=""; [ "$(id -u)" -eq 0 ] || sudo="sudo -n"
  echo "setup: installing r-base-core r-cran-ggplot2 r-cran-plyr (for benchmark/compare.R)" >&2
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends r-base-core r-cran-ggplot2 r-cran-plyr
fi
