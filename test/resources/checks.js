// Resource checks, run inside the injected Node with --expose-gc:
//
//   checks.js --out FILE [--only name,name] [--chunks N]
//
// Writes [{ name, ok, detail }] as JSON. Each check states its bound and why
// next to it. gc() is only called around measurements, never inside a
// measured benchmark run (this is not one: nothing here is timed).
import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';

const { values } = parseArgs({
  options: {
    out: { type: 'string' },
    only: { type: 'string' },
    chunks: { type: 'string', default: '1000000' },
  },
});
if (!values.out) throw new Error('--out FILE is required');
if (typeof gc !== 'function') throw new Error('run with --expose-gc');

const macrotask = () => new Promise((resolve) => setImmediate(resolve));
async function settle(turns = 5) {
  for (let i = 0; i < turns; i++) await macrotask();
}
function collect() {
  gc();
  gc();
}
// Pipes a 200-chunk source (HWM `R`) into a sink (HWM `W`) that takes a
// macrotask per write, through `pipe`, and reports the most chunks ever
// pulled from the source but not yet written.
async function pullsAheadOfSlowSink(R, W, pipe) {
  let pulls = 0;
  let written = 0;
  let worst = 0;
  const source = new ReadableStream({ pull(c) { pulls++; c.enqueue(pulls); if (pulls === 200) c.close(); } }, { highWaterMark: R });
  const sink = new WritableStream({
    async write() {
      worst = Math.max(worst, pulls - written);
      await macrotask();
      written++;
    },
  }, { highWaterMark: W });
  await pipe(source, sink);
  return { worst, written };
}

const passthrough = (counter) => new TransformStream({
  transform(chunk, c) {
    if (counter) counter.n++;
    c.enqueue(chunk);
  },
});

// A chunk that is really retained costs at least an object (32 bytes) plus
// the slot holding it (8 bytes): 10^6 chunks leaked ≥ 40 MB, and even one
// leaked 8-byte slot per chunk is 8 MB. A bounded pipeline retains nothing
// per chunk; what does change (code, ICs, a few pooled objects) is well under
// 1 MB after the warm-up. 8 MB sits between the two.
const HEAP_BOUND = 8 * 1024 * 1024;

async function pipeChain(n) {
  let i = 0;
  let written = 0;
  const source = new ReadableStream({
    pull(c) {
      c.enqueue({ i });
      if (++i === n) c.close();
    },
  });
  await source.pipeThrough(passthrough()).pipeThrough(passthrough()).pipeThrough(passthrough())
    .pipeTo(new WritableStream({ write() { written++; } }));
  return written;
}

const checks = {
  async 'heap-pipe-chain'() {
    const n = Number(values.chunks);
    await pipeChain(10_000); // warm-up: compile, inline caches, lazy internals
    collect();
    const before = process.memoryUsage().heapUsed;
    const written = await pipeChain(n);
    collect();
    const growth = process.memoryUsage().heapUsed - before;
    const mb = (x) => `${(x / 1048576).toFixed(2)} MB`;
    return {
      ok: written === n && growth < HEAP_BOUND,
      detail: `${written}/${n} chunks through 3 transforms; heap growth ${mb(growth)} (bound ${mb(HEAP_BOUND)})`,
    };
  },

  // A fast source feeding a slow sink through pipeTo must pause: at every
  // write, chunks pulled but not yet written fit in the source queue (its
  // HWM), the sink queue (its HWM) and the chunks in motion: the one being
  // written and the one the pipe holds between read and write.
  async 'backpressure-pipe'() {
    const R = 4;
    const W = 2;
    const IN_FLIGHT = 2;
    const bound = R + W + IN_FLIGHT;
    const { worst, written } = await pullsAheadOfSlowSink(R, W, (source, sink) => source.pipeTo(sink));
    return { ok: worst <= bound && written === 200, detail: `max pulled-but-unwritten ${worst} (bound HWM ${R} + ${W} + ${IN_FLIGHT} in flight = ${bound}); ${written} written` };
  },

  // The same through three TransformStreams (default strategies: writable
  // HWM 1, readable HWM 0): each adds its writable queue, the chunk inside
  // transform() and the chunk its pipe holds.
  async 'backpressure-chain'() {
    const R = 4;
    const W = 2;
    const PER_TRANSFORM = 3;
    const bound = R + W + 2 + 3 * PER_TRANSFORM;
    const { worst, written } = await pullsAheadOfSlowSink(R, W, (source, sink) =>
      source.pipeThrough(passthrough()).pipeThrough(passthrough()).pipeThrough(passthrough()).pipeTo(sink));
    return { ok: worst <= bound && written === 200, detail: `max pulled-but-unwritten ${worst} (bound ${bound}); ${written} written` };
  },

  // A reader that reads one chunk per macrotask: the source is pulled at
  // most HWM chunks ahead of the reads (plus the pull answering the read).
  async 'backpressure-reader'() {
    const R = 3;
    let pulls = 0;
    let reads = 0;
    let worst = 0;
    // The close only stops a lib without backpressure from pulling forever.
    const source = new ReadableStream({ pull(c) { pulls++; c.enqueue(pulls); if (pulls === 10_000) c.close(); } }, { highWaterMark: R });
    const reader = source.getReader();
    for (let i = 0; i < 100; i++) {
      await reader.read();
      reads++;
      await macrotask();
      worst = Math.max(worst, pulls - reads);
    }
    await reader.cancel();
    return { ok: worst <= R + 1, detail: `max pulled-but-unread ${worst} (bound HWM ${R} + 1)` };
  },

  // cancel() stops pulls, settles closed, and drops the queued chunks (the
  // spec resets the queue): a WeakRef to a queued chunk dies after gc.
  async 'cancel-stops-pulls-and-releases'() {
    let pulls = 0;
    let cancels = 0;
    let queued;
    const source = new ReadableStream({
      async pull(c) {
        pulls++;
        const chunk = { payload: new Uint8Array(1024) };
        // The last chunk enqueued before cancel() sits in the queue (only
        // the first one is read).
        queued = new WeakRef(chunk);
        c.enqueue(chunk);
        await macrotask();
      },
      cancel() { cancels++; },
    }, { highWaterMark: 8 });
    const reader = source.getReader();
    await reader.read();
    await settle(3);
    await reader.cancel('done');
    const atCancel = pulls;
    await settle(10);
    await reader.closed;
    reader.releaseLock();
    collect();
    await settle(1);
    collect();
    const released = pulls > 1 && queued.deref() === undefined;
    const ok = pulls === atCancel && cancels === 1 && !source.locked && released;
    return { ok, detail: `pulls ${atCancel} at cancel, ${pulls} after; cancel() calls ${cancels}; locked after release ${source.locked}; queued chunk collected ${released}` };
  },

  // abort() stops writes after the one in flight, rejects the queued ones
  // and drops their chunks.
  async 'abort-stops-writes-and-releases'() {
    let writes = 0;
    let aborts = 0;
    let queued;
    const sink = new WritableStream({
      async write() { writes++; await settle(2); },
      abort() { aborts++; },
    }, { highWaterMark: 16 });
    const writer = sink.getWriter();
    const results = [];
    for (let i = 0; i < 8; i++) {
      const chunk = { payload: new Uint8Array(1024) };
      if (i === 5) queued = new WeakRef(chunk);
      results.push(writer.write(chunk).then(() => 'ok', () => 'rejected'));
    }
    await macrotask();
    await writer.abort('stop');
    const atAbort = writes;
    await settle(10);
    const outcome = await Promise.all(results);
    await writer.closed.catch(() => {});
    writer.releaseLock();
    collect();
    await settle(1);
    collect();
    const released = queued.deref() === undefined;
    const rejected = outcome.filter((o) => o === 'rejected').length;
    const ok = writes === atAbort && aborts === 1 && rejected === 8 - atAbort && !sink.locked && released;
    return { ok, detail: `writes ${atAbort} at abort, ${writes} after; abort() calls ${aborts}; ${rejected} writes rejected; locked after release ${sink.locked}; queued chunk collected ${released}` };
  },

  // An aborted pipe releases both locks and stops pulling; with
  // preventCancel the source stays usable by a new reader. Allowed after the
  // abort: one more pull, the uncanceled source refilling its own queue to
  // its HWM (1).
  async 'pipe-abort-releases-locks'() {
    const details = [];
    let ok = true;
    for (const preventCancel of [false, true]) {
      let pulls = 0;
      const source = new ReadableStream({ async pull(c) { pulls++; c.enqueue(pulls); await macrotask(); } });
      const dest = new WritableStream({ async write() { await macrotask(); } });
      const ac = new AbortController();
      const piped = source.pipeTo(dest, { signal: ac.signal, preventCancel }).catch((e) => e.name);
      await settle(5);
      ac.abort();
      const result = await piped;
      const atAbort = pulls;
      await settle(10);
      const stopped = pulls <= atAbort + 1;
      const unlocked = !source.locked && !dest.locked;
      let reusable = true;
      if (preventCancel) reusable = (await source.getReader().read()).done === false;
      ok &&= stopped && unlocked && reusable && result === 'AbortError';
      details.push(`preventCancel=${preventCancel}: ${result}, pulls ${atAbort}→${pulls}, unlocked ${unlocked}${preventCancel ? `, source still readable ${reusable}` : ''}`);
    }
    return { ok, detail: details.join('; ') };
  },

  // Canceling both tee branches cancels the source once and stops pulls.
  async 'tee-cancel-stops-pulls'() {
    let pulls = 0;
    let cancels = 0;
    const source = new ReadableStream({ async pull(c) { pulls++; c.enqueue(pulls); await macrotask(); }, cancel() { cancels++; } });
    const [a, b] = source.tee();
    const ra = a.getReader();
    await ra.read();
    await settle(3);
    await Promise.all([ra.cancel(), b.cancel()]);
    const atCancel = pulls;
    await settle(10);
    return { ok: pulls === atCancel && cancels === 1, detail: `pulls ${atCancel}→${pulls}, source cancel() calls ${cancels}` };
  },
};

const only = values.only ? new Set(values.only.split(',')) : undefined;
for (const name of only ?? []) if (!(name in checks)) throw new Error(`unknown check '${name}'; checks: ${Object.keys(checks).join(', ')}`);
const results = [];
for (const [name, check] of Object.entries(checks)) {
  if (only && !only.has(name)) continue;
  try {
    results.push({ name, ...(await check()) });
  } catch (err) {
    results.push({ name, ok: false, detail: `threw ${err?.stack ?? err}` });
  }
}
writeFileSync(values.out, JSON.stringify(results));
