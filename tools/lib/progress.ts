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
