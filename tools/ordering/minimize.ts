// Delta debugging (Zeller's ddmin) over a list: the smallest sublist found
// for which `fails` still holds. Candidates of a round are tested together
// in one batch, since each test means starting one process per side.

/** `test` answers, for each candidate list, whether it still fails. */
export type BatchTest<T> = (candidates: T[][]) => Promise<boolean[]>;

function split<T>(items: T[], n: number): T[][] {
  const parts: T[][] = [];
  const size = items.length / n;
  for (let i = 0; i < n; i++) parts.push(items.slice(Math.round(i * size), Math.round((i + 1) * size)));
  return parts.filter((p) => p.length > 0);
}

export async function ddmin<T>(items: T[], test: BatchTest<T>, onRound?: (size: number) => void): Promise<T[]> {
  let current = items;
  let n = 2;
  while (current.length >= 2) {
    const chunks = split(current, Math.min(n, current.length));
    const complements = chunks.map((_, i) => chunks.filter((__, j) => j !== i).flat());
    const results = await test([...chunks, ...complements]);
    const chunkHit = chunks.findIndex((_, i) => results[i]);
    const complementHit = complements.findIndex((_, i) => results[chunks.length + i]);
    if (chunkHit >= 0) {
      current = chunks[chunkHit];
      n = 2;
    } else if (complementHit >= 0) {
      current = complements[complementHit];
      n = Math.max(n - 1, 2);
    } else if (n >= current.length) {
      break;
    } else {
      n = Math.min(current.length, n * 2);
    }
    onRound?.(current.length);
  }
  // The empty list may fail too (the source alone differs).
  if (current.length === 1 && (await test([[]]))[0]) return [];
  return current;
}
