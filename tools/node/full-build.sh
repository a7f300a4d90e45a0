#!/bin/sh
# Starts (or resumes) the full build of the tree tools/node/full-tree.ts
# assembled, in the background, detached from the session:
#
#   sh tools/node/full-build.sh            start/resume; returns at once
#   sh tools/node/full-build.sh status     is it running, how far (ninja edges left)
#   sh tools/node/full-build.sh stop       stops the job it started (by its PID file)
#
# nice -n 19, ccache (CCACHE_DIR, 20G), ninja -j2 over all default targets
# (what `make` builds, out/Release/node among them). Resumable: ninja is
# incremental, so running the same command again continues an interrupted
# build. -k 0 (NINJA_KEEP) keeps going past failed edges so that everything
# not depending on them (V8, ICU: most of the work) still gets built; the
# log's end lists what failed.
#
# Environment: NODE24_DIR (/work/node24), BUILD_LOG
# (/work/main/out/node-build/base.log), BUILD_PID (<log dir>/base.pid),
# CCACHE_DIR (/work/.ccache), JOBS (2), NINJA_KEEP (0 = keep going).
set -eu

TREE=${NODE24_DIR:-/work/node24}
LOG=${BUILD_LOG:-/work/main/out/node-build/base.log}
PIDFILE=${BUILD_PID:-$(dirname "$LOG")/base.pid}
export CCACHE_DIR=${CCACHE_DIR:-/work/.ccache}
JOBS=${JOBS:-2}
KEEP=${NINJA_KEEP:-0}
OUT="$TREE/out/Release"

running() { [ -f "$PIDFILE" ] && kill -0 "$(cat "$PIDFILE")" 2>/dev/null; }

edges_left() {
  # ninja -n lists the edges it would still run: "[k/N] ..."; its last line gives N.
  ninja -C "$OUT" -n 2>/dev/null | sed -n 's/^\[[0-9]*\/\([0-9]*\)\].*/\1/p' | tail -1
}

case "${1:-start}" in
  status)
    if running; then echo "running: PID $(cat "$PIDFILE") (log $LOG)"; else echo "not running (log $LOG)"; fi
    echo "edges left: $(edges_left || echo '?') of $(ninja -C "$OUT" -t commands 2>/dev/null | wc -l) commands in the graph"
    # Failed edges of the latest run, split by cause: a header written for a dependency that could not be
    # provisioned (expected until it is), or anything else (a real problem).
    awk '/^=== start /{n=0; o=0; t=""; p=0; next} /^FAILED: /{if (t) n++; if (t && !p) o++; t=$2; p=0; next} /is not provisioned/{p=1} END{if (t) n++; if (t && !p) o++; printf "failed edges: %d (%d for an unprovisioned dependency, %d other)\n", n, n-o, o}' "$LOG" 2>/dev/null || true
    tail -n 3 "$LOG" 2>/dev/null || true
    exit 0 ;;
  stop)
    if running; then kill -- "-$(cat "$PIDFILE")" 2>/dev/null || kill "$(cat "$PIDFILE")"; echo "stopped $(cat "$PIDFILE")"; else echo "not running"; fi
    exit 0 ;;
  start) ;;
  *) echo "usage: sh tools/node/full-build.sh [start|status|stop]" >&2; exit 2 ;;
esac

[ -f "$OUT/build.ninja" ] || { echo "full-build: $OUT/build.ninja is missing: run node tools/node/full-tree.ts provision (or configure) first" >&2; exit 1; }
if running; then echo "full-build: already running as PID $(cat "$PIDFILE") (log $LOG)"; exit 0; fi
mkdir -p "$(dirname "$LOG")" "$CCACHE_DIR"
ccache --max-size=20G >/dev/null

# The job: a new session (setsid) so it outlives this shell; nohup for SIGHUP.
setsid nohup nice -n 19 sh -c '
  OUT=$1; JOBS=$2; KEEP=$3
  start=$(date +%s)
  echo "=== start $(date -Is) ninja -C $OUT -j$JOBS -k $KEEP (CCACHE_DIR=$CCACHE_DIR; left: $(ninja -C "$OUT" -n 2>/dev/null | sed -n "s/^\[[0-9]*\/\([0-9]*\)\].*/\1/p" | tail -1) edges)"
  ninja -C "$OUT" -j"$JOBS" -k "$KEEP"
  rc=$?
  end=$(date +%s)
  echo "=== end $(date -Is) rc=$rc wall $((end - start)) s ($(( (end - start) / 60 )) min)"
  echo "=== edges still to build: $(ninja -C "$OUT" -n 2>/dev/null | sed -n "s/^\[[0-9]*\/\([0-9]*\)\].*/\1/p" | tail -1)"
  ccache --show-stats 2>/dev/null | sed -n "1,12p"
  [ -x "$OUT/node" ] && echo "=== $OUT/node: $("$OUT/node" --version 2>&1)"
  exit $rc
' full-build "$OUT" "$JOBS" "$KEEP" >>"$LOG" 2>&1 < /dev/null &
echo $! > "$PIDFILE"
echo "full-build: started PID $(cat "$PIDFILE"); log $LOG; resume with the same command"
