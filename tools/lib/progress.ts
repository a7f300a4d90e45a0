// Progress of a long run on stderr: rewritten in place on a terminal; on a
// pipe or a CI log, a line at every tenth of the way and at the end.
export function progress(label: string, total: number): (done: number) => void {
  const tty = process.stderr.isTTY === true;
  let lastTenth = -1;
  return (done: number) => {
    if (tty) {
      process.stderr.write(`\r${label}: ${done}/${total}${done === total ? '\n' : ''}`);
      return;
    }
    const tenth = Math.floor((done * 10) / total);
    if (tenth !== lastTenth || done === total) {
      lastTenth = tenth;
      process.stderr.write(`${label}: ${done}/${total}\n`);
    }
  };
}

/** Seconds as `42s`, `3m 07s` or `1h 05m` (`?` when not finite), for "— … left" lines. */
export function duration(seconds: number): string {
  if (!Number.isFinite(seconds)) return '?';
  const s = Math.round(seconds);
  if (s < 60) return `${s}s`;
  const m = Math.floor(s / 60);
  return m < 60 ? `${m}m ${String(s % 60).padStart(2, '0')}s` : `${Math.floor(m / 60)}h ${String(m % 60).padStart(2, '0')}m`;
}
