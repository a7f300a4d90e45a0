// Runs `task` over `items` with at most `concurrency` at once, calling
// `done` with each result as it finishes (in completion order).
export async function forEachConcurrently<T, R>(
  items: readonly T[],
  concurrency: number,
  task: (item: T) => Promise<R>,
  done: (result: R) => void,
): Promise<void> {
  let next = 0;
  const lane = async () => {
    while (next < items.length) done(await task(items[next++]));
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(concurrency, items.length)) }, lane));
}
