// pipeTo with every option and AbortSignal state, shutdown from either
// end, and pipeThrough chains.

const scenarios = {};

function source(t, { chunks = 3, end = 'close', mode = 'sync', name = 'source' } = {}) {
  let n = 0;
  return new ReadableStream({
    pull: t.fn(`${name}.pull`, mode, (c) => {
      if (n < chunks) c.enqueue(`c${++n}`);
      else if (end === 'close') c.close();
      else if (end === 'error') c.error(new Error('source error'));
    }),
    cancel: t.fn(`${name}.cancel`, 'sync'),
  });
}

function sink(t, { mode = 'sync', failAt = 0, name = 'sink', hwm } = {}) {
  let n = 0;
  return new WritableStream({
    write: t.fn(`${name}.write`, mode, () => {
      if (++n === failAt) throw new Error('sink write fails');
    }),
    close: t.fn(`${name}.close`, 'sync'),
    abort: t.fn(`${name}.abort`, 'sync'),
  }, hwm === undefined ? undefined : { highWaterMark: hwm });
}

const OPTION_SETS = {
  none: {},
  'prevent-close': { preventClose: true },
  'prevent-abort': { preventAbort: true },
  'prevent-cancel': { preventCancel: true },
  'prevent-all': { preventClose: true, preventAbort: true, preventCancel: true },
};

// Each option set against each way a pipe ends.
for (const [optName, options] of Object.entries(OPTION_SETS)) {
  scenarios[`source-closes-${optName}`] = (t) => {
    const dest = sink(t);
    t.track('pipeTo', source(t).pipeTo(dest, options));
    t.track('dest.locked after', Promise.resolve().then(() => t.ticks(20)).then(() => dest.locked));
  };
  scenarios[`source-errors-${optName}`] = (t) => {
    t.track('pipeTo', source(t, { end: 'error' }).pipeTo(sink(t), options));
  };
  scenarios[`dest-errors-${optName}`] = (t) => {
    t.track('pipeTo', source(t, { chunks: 5 }).pipeTo(sink(t, { failAt: 2 }), options));
  };
  scenarios[`signal-abort-mid-pipe-${optName}`] = async (t) => {
    const ac = new AbortController();
    const src = source(t, { chunks: 10, mode: 'late' });
    const dest = sink(t, { mode: 'late' });
    t.track('pipeTo', src.pipeTo(dest, { ...options, signal: ac.signal }));
    await t.ticks(8);
    t.log('aborting');
    ac.abort(new Error('user abort'));
    await t.ticks(10);
    t.log(`locked src ${src.locked} dest ${dest.locked}`);
  };
  scenarios[`signal-already-aborted-${optName}`] = (t) => {
    const src = source(t);
    t.track('pipeTo', src.pipeTo(sink(t), { ...options, signal: AbortSignal.abort('pre') }));
    t.log(`locked ${src.locked}`);
  };
}

Object.assign(scenarios, {
  'dest-closed-before-pipe': async (t) => {
    const dest = sink(t);
    const w = dest.getWriter();
    await w.close();
    w.releaseLock();
    t.track('pipeTo', source(t).pipeTo(dest));
  },
  'dest-closing-prevent-cancel': async (t) => {
    const dest = sink(t);
    const w = dest.getWriter();
    t.track('close', w.close());
    w.releaseLock();
    t.track('pipeTo', source(t).pipeTo(dest, { preventCancel: true }));
  },
  'source-errored-before-pipe': async (t) => {
    const src = new ReadableStream({ start: (c) => c.error(new Error('early')) });
    t.track('pipeTo', src.pipeTo(sink(t)));
  },
  'source-closed-before-pipe': async (t) => {
    const src = new ReadableStream({ start: (c) => c.close() });
    t.track('pipeTo', src.pipeTo(sink(t)));
  },
  'dest-errored-before-pipe': async (t) => {
    let ctl;
    const dest = new WritableStream({ start: (c) => { ctl = c; }, abort: t.fn('abort', 'sync') });
    ctl.error(new Error('dest broken'));
    t.track('pipeTo', source(t).pipeTo(dest));
  },
  'pipe-locked-and-bad-args': (t) => {
    const rs = source(t);
    const ws = sink(t);
    ws.getWriter();
    t.op('dest locked', () => rs.pipeTo(ws));
    t.log(`rs.locked ${rs.locked}`);
    t.op('not writable', () => rs.pipeTo({}));
    t.op('bad signal', () => rs.pipeTo(sink(t), { signal: {} }));
  },
  'queued-chunks-flushed-before-close': (t) => {
    const src = new ReadableStream({ start: (c) => { for (const x of 'abcde') c.enqueue(x); c.close(); } });
    t.track('pipeTo', src.pipeTo(sink(t, { mode: 'async' })));
  },
  'slow-sink-backpressure': (t) => {
    t.track('pipeTo', source(t, { chunks: 5 }).pipeTo(sink(t, { mode: 'late', hwm: 1 })));
  },
  'hwm-zero-sink': (t) => {
    t.track('pipeTo', source(t, { chunks: 3 }).pipeTo(sink(t, { hwm: 0 })));
  },
  'byte-source-to-sink': (t) => {
    let n = 0;
    const src = new ReadableStream({
      type: 'bytes',
      pull: t.fn('pull', 'sync', (c) => { if (++n > 3) c.close(); else c.enqueue(new Uint8Array([n])); }),
    });
    t.track('pipeTo', src.pipeTo(sink(t)));
  },
  'two-sources-one-dest-sequential': async (t) => {
    const dest = sink(t);
    await t.track('pipe#1', source(t, { chunks: 2, name: 'a' }).pipeTo(dest, { preventClose: true }));
    await t.track('pipe#2', source(t, { chunks: 2, name: 'b' }).pipeTo(dest));
  },
  'abort-signal-after-finish': async (t) => {
    const ac = new AbortController();
    await t.track('pipeTo', source(t, { chunks: 1 }).pipeTo(sink(t), { signal: ac.signal }));
    ac.abort('too late');
    t.log('aborted after finish');
  },
  'signal-abort-while-write-pending': async (t) => {
    const ac = new AbortController();
    const dest = new WritableStream({ write: t.fn('write', 'never'), abort: t.fn('abort', 'sync') });
    t.track('pipeTo', source(t, { chunks: 3 }).pipeTo(dest, { signal: ac.signal }));
    await t.ticks(6);
    ac.abort();
  },
  'writer-abort-during-pipe': async (t) => {
    const ts = new TransformStream();
    t.track('pipeTo', source(t, { chunks: 5, mode: 'late' }).pipeTo(ts.writable));
    await t.ticks(5);
    t.track('cancel readable side', ts.readable.cancel('downstream gone'));
  },
});

// pipeThrough chains: 1..3 transforms, sync or async transform callbacks.
for (const mode of ['sync', 'async', 'late']) {
  for (const length of [1, 2, 3]) {
    scenarios[`${mode}-transform-chain-${length}`] = (t) => {
      let rs = source(t, { chunks: 3 });
      for (let i = 1; i <= length; i++) {
        rs = rs.pipeThrough(new TransformStream({
          transform: t.fn(`ts${i}.transform`, mode, (chunk, c) => c.enqueue(`${chunk}.${i}`)),
          flush: t.fn(`ts${i}.flush`, 'sync'),
        }));
      }
      t.track('pipeTo', rs.pipeTo(sink(t)));
    };
  }
}

Object.assign(scenarios, {
  'chain-read-by-reader': async (t) => {
    const rs = source(t, { chunks: 2 })
      .pipeThrough(new TransformStream({ transform: t.fn('t1', 'sync', (c, ctl) => ctl.enqueue(c)) }))
      .pipeThrough(new TransformStream());
    await t.drain(rs.getReader());
  },
  'chain-cancel-at-end': async (t) => {
    const rs = source(t, { chunks: 10, mode: 'late' })
      .pipeThrough(new TransformStream({ cancel: t.fn('t1.cancel', 'sync') }))
      .pipeThrough(new TransformStream({ cancel: t.fn('t2.cancel', 'async') }));
    const reader = rs.getReader();
    t.track('read', reader.read());
    await t.ticks(6);
    t.track('cancel', reader.cancel('enough'));
  },
  'chain-error-in-middle': (t) => {
    const rs = source(t, { chunks: 4 })
      .pipeThrough(new TransformStream({ transform: t.fn('t1', 'sync', (c, ctl) => ctl.enqueue(c)) }))
      .pipeThrough(new TransformStream({ transform: t.fn('t2', 'sync', (c) => { if (c === 'c2') throw new Error('t2 fails'); }) }))
      .pipeThrough(new TransformStream({ transform: t.fn('t3', 'sync', (c, ctl) => ctl.enqueue(c)) }));
    t.track('pipeTo', rs.pipeTo(sink(t)));
  },
  'pipe-through-with-signal': async (t) => {
    const ac = new AbortController();
    const out = source(t, { chunks: 10, mode: 'late' }).pipeThrough(new TransformStream(), { signal: ac.signal });
    const reader = out.getReader();
    t.track('read#1', reader.read());
    t.track('closed', reader.closed);
    await t.ticks(4);
    ac.abort(new Error('through abort'));
  },
  'pipe-through-options-prevent-cancel': async (t) => {
    const src = source(t, { chunks: 10, mode: 'late' });
    const out = src.pipeThrough(new TransformStream(), { preventCancel: true });
    const reader = out.getReader();
    t.track('read', reader.read());
    await t.ticks(3);
    t.track('cancel', reader.cancel('x'));
    await t.ticks(10);
    t.log(`src.locked ${src.locked}`);
  },
  // Pass-through TransformStreams (no transformer) between a source that
  // errors mid-stream and the end of the chain: the error must reach the far
  // end as an error, after every chunk before it.
  'pass-through-source-errors-to-sink': (t) => {
    const rs = source(t, { chunks: 3, end: 'error' }).pipeThrough(new TransformStream());
    t.track('pipeTo', rs.pipeTo(sink(t)));
  },
  'pass-through-chain-source-errors-to-reader': async (t) => {
    const rs = source(t, { chunks: 3, end: 'error' })
      .pipeThrough(new TransformStream())
      .pipeThrough(new TransformStream());
    await t.drain(rs.getReader());
  },
  // Chains of synchronous transforms (the one-pass path) and each way a
  // chunk falls back to the writable side's path.
  'sync-chain-promise-midway': (t) => {
    let n = 0;
    const rs = source(t, { chunks: 5 })
      .pipeThrough(new TransformStream({
        transform: t.fn('ts1.transform', 'sync', (c, ctl) => {
          ctl.enqueue(`${c}.1`);
          return ++n === 3 ? t.ticks(2) : undefined;
        }),
      }))
      .pipeThrough(new TransformStream({ transform: t.fn('ts2.transform', 'sync', (c, ctl) => ctl.enqueue(`${c}.2`)) }));
    t.track('pipeTo', rs.pipeTo(sink(t)));
  },
  'sync-chain-slow-sink': (t) => {
    const rs = source(t, { chunks: 4 })
      .pipeThrough(new TransformStream({ transform: t.fn('ts1.transform', 'sync', (c, ctl) => ctl.enqueue(`${c}.1`)) }))
      .pipeThrough(new TransformStream({ transform: t.fn('ts2.transform', 'sync', (c, ctl) => ctl.enqueue(`${c}.2`)) }));
    t.track('pipeTo', rs.pipeTo(sink(t, { mode: 'late' })));
  },
  'sync-chain-two-per-chunk': (t) => {
    const rs = source(t, { chunks: 3 })
      .pipeThrough(new TransformStream({
        transform: t.fn('ts1.transform', 'sync', (c, ctl) => { ctl.enqueue(`${c}.a`); ctl.enqueue(`${c}.b`); }),
      }))
      .pipeThrough(new TransformStream({ transform: t.fn('ts2.transform', 'sync', (c, ctl) => ctl.enqueue(`${c}.2`)) }));
    t.track('pipeTo', rs.pipeTo(sink(t)));
  },
  'sync-chain-filter': (t) => {
    let n = 0;
    const rs = source(t, { chunks: 5 })
      .pipeThrough(new TransformStream({
        transform: t.fn('ts1.transform', 'sync', (c, ctl) => { if (++n % 2) ctl.enqueue(c); }),
      }))
      .pipeThrough(new TransformStream({ transform: t.fn('ts2.transform', 'sync', (c, ctl) => ctl.enqueue(`${c}.2`)) }));
    t.track('pipeTo', rs.pipeTo(sink(t)));
  },
  'sync-chain-terminate': (t) => {
    let n = 0;
    const rs = source(t, { chunks: 5 })
      .pipeThrough(new TransformStream({
        transform: t.fn('ts1.transform', 'sync', (c, ctl) => { ctl.enqueue(c); if (++n === 2) ctl.terminate(); }),
        flush: t.fn('ts1.flush', 'sync'),
      }))
      .pipeThrough(new TransformStream({ transform: t.fn('ts2.transform', 'sync', (c, ctl) => ctl.enqueue(`${c}.2`)) }));
    t.track('pipeTo', rs.pipeTo(sink(t)));
  },
  'sync-chain-controller-error': (t) => {
    let n = 0;
    const rs = source(t, { chunks: 5 })
      .pipeThrough(new TransformStream({ transform: t.fn('ts1.transform', 'sync', (c, ctl) => ctl.enqueue(c)) }))
      .pipeThrough(new TransformStream({
        transform: t.fn('ts2.transform', 'sync', (c, ctl) => {
          if (++n === 3) ctl.error(new Error('ts2 error'));
          else ctl.enqueue(c);
        }),
      }));
    t.track('pipeTo', rs.pipeTo(sink(t)));
  },
  'sync-chain-source-errors': (t) => {
    const rs = source(t, { chunks: 3, end: 'error' })
      .pipeThrough(new TransformStream({ transform: t.fn('ts1.transform', 'sync', (c, ctl) => ctl.enqueue(c)) }))
      .pipeThrough(new TransformStream({ transform: t.fn('ts2.transform', 'sync', (c, ctl) => ctl.enqueue(c)) }));
    t.track('pipeTo', rs.pipeTo(sink(t)));
  },
  'sync-chain-sink-fails': (t) => {
    const rs = source(t, { chunks: 5 })
      .pipeThrough(new TransformStream({
        transform: t.fn('ts1.transform', 'sync', (c, ctl) => ctl.enqueue(c)),
        cancel: t.fn('ts1.cancel', 'sync'),
      }))
      .pipeThrough(new TransformStream({
        transform: t.fn('ts2.transform', 'sync', (c, ctl) => ctl.enqueue(c)),
        cancel: t.fn('ts2.cancel', 'sync'),
      }));
    t.track('pipeTo', rs.pipeTo(sink(t, { failAt: 2 })));
  },
  // Nobody reads the end of source -> new TransformStream() -> a transform:
  // the pipeline stalls once every queue is full, the source pulled as often
  // as through a TransformStream whose transform() enqueues. A chunk handed
  // past the identity stream that filled the last one's writable side once
  // left the second pipe reading one chunk more (layer 03).
  'pass-through-fills-destination': async (t) => {
    let n = 0;
    const rs = new ReadableStream({
      pull: t.fn('source.pull', 'sync', (c) => c.enqueue(`c${++n}`)),
    }, { highWaterMark: 0 });
    rs.pipeThrough(new TransformStream(undefined, { highWaterMark: 1 }, { highWaterMark: 0 }))
      .pipeThrough(new TransformStream({
        transform: t.fn('ts2.transform', 'sync', (c, ctl) => ctl.enqueue(c)),
      }, { highWaterMark: 4 }));
    await t.ticks(30);
  },
  // The sink errors its controller in its first write, which settles 3
  // ticks later: until then the destination is erroring (desiredSize null),
  // so the pipe reads no more, and the reader after it gets the rest of the
  // source. The base read on and lost the chunks (fixed by layer 14; see
  // tools/ordering/base-fixes.ts).
  'dest-erroring-keeps-source': async (t) => {
    const rs = source(t, { chunks: 5 });
    const dest = new WritableStream({
      write: t.fn('sink.write', 'late', (c, ctl) => ctl.error(new Error('sink error'))),
    }, { highWaterMark: 4 });
    await t.ticks(2);
    await t.track('pipeTo', rs.pipeTo(dest, { preventCancel: true })).catch(() => {});
    await t.drain(rs.getReader());
  },
  'sync-chain-signal-abort': (t) => {
    const ac = new AbortController();
    let n = 0;
    const rs = source(t, { chunks: 20 })
      .pipeThrough(new TransformStream({ transform: t.fn('ts1.transform', 'sync', (c, ctl) => ctl.enqueue(c)) }))
      .pipeThrough(new TransformStream({ transform: t.fn('ts2.transform', 'sync', (c, ctl) => ctl.enqueue(c)) }));
    const dest = new WritableStream({
      write: t.fn('sink.write', 'sync', () => { if (++n === 2) ac.abort(new Error('user abort')); }),
      abort: t.fn('sink.abort', 'sync'),
    });
    t.track('pipeTo', rs.pipeTo(dest, { signal: ac.signal }));
  },
  'sync-chain-read-by-reader': async (t) => {
    const rs = source(t, { chunks: 3 })
      .pipeThrough(new TransformStream({ transform: t.fn('ts1.transform', 'sync', (c, ctl) => ctl.enqueue(`${c}.1`)) }))
      .pipeThrough(new TransformStream({ transform: t.fn('ts2.transform', 'sync', (c, ctl) => ctl.enqueue(`${c}.2`)) }));
    await t.drain(rs.getReader());
  },
  'sync-chain-reader-cancels': async (t) => {
    const rs = source(t, { chunks: 10 })
      .pipeThrough(new TransformStream({
        transform: t.fn('ts1.transform', 'sync', (c, ctl) => ctl.enqueue(c)),
        cancel: t.fn('ts1.cancel', 'sync'),
      }))
      .pipeThrough(new TransformStream({
        transform: t.fn('ts2.transform', 'sync', (c, ctl) => ctl.enqueue(c)),
        cancel: t.fn('ts2.cancel', 'sync'),
      }));
    const reader = rs.getReader();
    await t.track('read#1', reader.read());
    await t.track('read#2', reader.read());
    t.track('cancel', reader.cancel('enough'));
  },
  'sync-chain-size-algorithm': (t) => {
    const rs = source(t, { chunks: 3 })
      .pipeThrough(new TransformStream(
        { transform: t.fn('ts1.transform', 'sync', (c, ctl) => ctl.enqueue(c)) },
        { size: t.fn('ts1.size', 'sync', () => 1) }))
      .pipeThrough(new TransformStream({ transform: t.fn('ts2.transform', 'sync', (c, ctl) => ctl.enqueue(c)) }));
    t.track('pipeTo', rs.pipeTo(sink(t)));
  },
  'sync-chain-readable-hwm': (t) => {
    const rs = source(t, { chunks: 5 })
      .pipeThrough(new TransformStream(
        { transform: t.fn('ts1.transform', 'sync', (c, ctl) => ctl.enqueue(c)) }, undefined, { highWaterMark: 2 }))
      .pipeThrough(new TransformStream({ transform: t.fn('ts2.transform', 'sync', (c, ctl) => ctl.enqueue(c)) }));
    t.track('pipeTo', rs.pipeTo(sink(t, { mode: 'late' })));
  },
  // An enqueue() outside transform() while the chain is idle, the source
  // holding its close back until the extra chunk has reached the sink.
  'sync-chain-enqueue-outside-transform': (t) => {
    let controller;
    let n = 0;
    let release;
    const gate = new Promise((resolve) => { release = resolve; });
    const src = new ReadableStream({
      pull: t.fn('source.pull', 'sync', (c) => {
        if (++n <= 2) c.enqueue(`c${n}`);
        else return gate.then(() => c.close());
      }),
    });
    const rs = src
      .pipeThrough(new TransformStream({
        start: (c) => { controller = c; },
        transform: t.fn('ts1.transform', 'sync', (c, ctl) => ctl.enqueue(c)),
      }))
      .pipeThrough(new TransformStream({ transform: t.fn('ts2.transform', 'sync', (c, ctl) => ctl.enqueue(c)) }));
    const dest = new WritableStream({
      write: t.fn('sink.write', 'sync', (c) => {
        if (c === 'c2') {
          t.ticks(6).then(() => {
            t.log(`desiredSize ${controller.desiredSize}`);
            controller.enqueue('extra');
            t.log(`desiredSize ${controller.desiredSize}`);
          });
        } else if (c === 'extra') {
          release();
        }
      }),
      close: t.fn('sink.close', 'sync'),
    });
    t.track('pipeTo', rs.pipeTo(dest));
  },
  // A pass-through hands chunks to the pipe into a synchronous transform
  // while that pipe's read is pending, with a sink slow enough that the
  // transform's readable side pushes back.
  'sync-chain-after-pass-through': (t) => {
    const rs = source(t, { chunks: 6 })
      .pipeThrough(new TransformStream())
      .pipeThrough(new TransformStream({ transform: t.fn('ts1.transform', 'sync', (c, ctl) => ctl.enqueue(c)) }))
      .pipeThrough(new TransformStream({ transform: t.fn('ts2.transform', 'sync', (c, ctl) => ctl.enqueue(c)) }));
    t.track('pipeTo', rs.pipeTo(sink(t, { mode: 'late' })));
  },
  // Pipes between pass-through streams next to pipes through synchronous
  // transforms: the first resume directly, the others as pipe steps.
  'sync-chain-into-pass-through-pair': (t) => {
    const rs = source(t, { chunks: 6 })
      .pipeThrough(new TransformStream({ transform: t.fn('ts1.transform', 'sync', (c, ctl) => ctl.enqueue(c)) }))
      .pipeThrough(new TransformStream())
      .pipeThrough(new TransformStream());
    t.track('pipeTo', rs.pipeTo(sink(t, { mode: 'late' })));
  },
  'pass-through-pair-into-sync-chain': (t) => {
    const rs = source(t, { chunks: 6, mode: 'late' })
      .pipeThrough(new TransformStream())
      .pipeThrough(new TransformStream())
      .pipeThrough(new TransformStream({ transform: t.fn('ts1.transform', 'sync', (c, ctl) => ctl.enqueue(c)) }));
    t.track('pipeTo', rs.pipeTo(sink(t)));
  },
  'sync-chain-flush-enqueues': (t) => {
    const rs = source(t, { chunks: 2 })
      .pipeThrough(new TransformStream({
        transform: t.fn('ts1.transform', 'sync', (c, ctl) => ctl.enqueue(c)),
        flush: t.fn('ts1.flush', 'sync', (ctl) => { ctl.enqueue('f1'); ctl.enqueue('f2'); }),
      }))
      .pipeThrough(new TransformStream({
        transform: t.fn('ts2.transform', 'sync', (c, ctl) => ctl.enqueue(c)),
        flush: t.fn('ts2.flush', 'sync'),
      }));
    t.track('pipeTo', rs.pipeTo(sink(t)));
  },
  'pipe-through-bad-pair': (t) => {
    t.op('no readable', () => new ReadableStream().pipeThrough({ writable: new WritableStream() }));
    t.op('no writable', () => new ReadableStream().pipeThrough({ readable: new ReadableStream() }));
  },
});

// source -> ts1 -> ts2 -> ts3, three synchronous transforms that enqueue
// each chunk, except the fourth chunk of the one named `at`, which
// act(chunk, controller) handles. `transformer(name)` adds to a
// transformer, `pipeOptions(name)` are its pipeThrough()'s options.
function syncChainOfThree(t, at, act, { transformer = () => ({}), pipeOptions = () => undefined } = {}) {
  let n = 0;
  let rs = source(t, { chunks: 8 });
  for (const name of ['ts1', 'ts2', 'ts3']) {
    rs = rs.pipeThrough(new TransformStream({
      ...transformer(name),
      transform: t.fn(`${name}.transform`, 'sync', (c, ctl) => (name === at && ++n === 4 ? act(c, ctl) : ctl.enqueue(c))),
      flush: t.fn(`${name}.flush`, 'sync'),
      cancel: t.fn(`${name}.cancel`, 'sync'),
    }), pipeOptions(name));
  }
  return rs;
}

// A chain of three synchronous transforms at rest, whose middle transform
// does something else than enqueue one chunk at its fourth chunk: every
// way a hop of the chain leaves the one-pass path, and the desiredSize it
// sees afterwards (each call logs the one it saw on entry).
const FUSED_HOP_ACTIONS = {
  'one': (c, ctl) => { ctl.enqueue(c); },
  'none': () => {},
  'two': (c, ctl) => { ctl.enqueue(`${c}.a`); ctl.enqueue(`${c}.b`); },
  'error-first': (c, ctl) => { ctl.error(new Error('ts2 error')); },
  'error-after': (c, ctl) => { ctl.enqueue(c); ctl.error(new Error('ts2 error')); },
  'terminate-first': (c, ctl) => { ctl.terminate(); },
  'terminate-after': (c, ctl) => { ctl.enqueue(c); ctl.terminate(); },
  'throw-first': () => { throw new Error('ts2 throws'); },
  'throw-after': (c, ctl) => { ctl.enqueue(c); throw new Error('ts2 throws'); },
  'promise-after': (c, ctl, t) => { ctl.enqueue(c); return t.ticks(2); },
  'enqueue-downstream': (c, ctl, t, others) => { others.ts3.enqueue(`${c}.x`); ctl.enqueue(c); },
  'enqueue-upstream': (c, ctl, t, others) => { ctl.enqueue(c); others.ts1.enqueue(`${c}.x`); },
  'terminate-upstream': (c, ctl, t, others) => { ctl.enqueue(c); others.ts1.terminate(); },
  'error-downstream': (c, ctl, t, others) => { ctl.enqueue(c); others.ts3.error(new Error('ts3 error')); },
  'abort-signal': (c, ctl, t, others) => { ctl.enqueue(c); others.abort(new Error('user abort')); },
  // The signal of the pipe that reads ts2: the chunk its read has just
  // received is written into ts3 before the pipe aborts ts3 (layer 17).
  'abort-next-pipe': (c, ctl, t, others) => { ctl.enqueue(c); others.abortNext(new Error('user abort')); },
  // The signal of the pipe that writes into ts2, whose write is the one
  // transform() runs for: the pipe waits for it before it aborts ts2.
  'abort-feeding-pipe': (c, ctl, t, others) => { ctl.enqueue(c); others.abortFeeding(new Error('user abort')); },
  'abort-feeding-pipe-first': (c, ctl, t, others) => { others.abortFeeding(new Error('user abort')); ctl.enqueue(c); },
  'error-upstream': (c, ctl, t, others) => { ctl.enqueue(c); others.ts1.error(new Error('ts1 error')); },
  'enqueue-after-downstream-error': (c, ctl, t, others) => {
    others.ts3.error(new Error('ts3 error'));
    ctl.enqueue(c);
  },
};
for (const [action, act] of Object.entries(FUSED_HOP_ACTIONS)) {
  scenarios[`sync-chain-hop-${action}`] = (t) => {
    const ac = new AbortController();
    const next = new AbortController();
    const feeding = new AbortController();
    const others = { abort: (e) => ac.abort(e), abortNext: (e) => next.abort(e), abortFeeding: (e) => feeding.abort(e) };
    const rs = syncChainOfThree(t, 'ts2', (c, ctl) => {
      try {
        return act(c, ctl, t, others);
      } finally {
        t.log(`ts2 desiredSize after ${action}: ${ctl.desiredSize}`);
      }
    }, {
      transformer: (name) => ({ start: (ctl) => { others[name] = ctl; } }),
      pipeOptions: (name) => (name === 'ts3' ? { signal: next.signal } : name === 'ts2' ? { signal: feeding.signal } : undefined),
    });
    t.track('pipeTo', rs.pipeTo(sink(t), { signal: ac.signal }));
  };
}

// The last transform of such a chain aborts the signal of the pipe that
// reads its readable side (the pipe into the sink) at its fourth chunk,
// before or after the enqueue() that fulfils that pipe's pending read.
const LAST_HOP_ACTIONS = {
  'abort-signal-first': (c, ctl, abort) => { abort(new Error('user abort')); ctl.enqueue(c); },
  'abort-signal-after': (c, ctl, abort) => { ctl.enqueue(c); abort(new Error('user abort')); },
};
for (const [action, act] of Object.entries(LAST_HOP_ACTIONS)) {
  scenarios[`sync-chain-last-hop-${action}`] = (t) => {
    const ac = new AbortController();
    const rs = syncChainOfThree(t, 'ts3', (c, ctl) => act(c, ctl, (e) => ac.abort(e)));
    t.track('pipeTo', rs.pipeTo(sink(t), { signal: ac.signal }));
  };
}

// A pipe shuts down while its write is pending, and that write then fails:
// the pipe waits for it to settle, then takes its shutdown action (cancel
// the source, close the destination) and settles with the shutdown's own
// outcome. The base skipped the action and rejected with the write's
// error (fixed by layer 26; see tools/ordering/base-fixes.ts).
const SHUTDOWNS = {
  'signal-abort': (ac) => ac.abort(new Error('user abort')),
  'source-errors': (ac, c) => c.error(new Error('source error')),
  'source-closes-prevent-close': (ac, c) => c.close(),
};
for (const [how, shutDown] of Object.entries(SHUTDOWNS)) {
  scenarios[`${how}-while-write-fails`] = (t) => {
    const ac = new AbortController();
    let controller;
    const rs = new ReadableStream({
      start(c) {
        controller = c;
        c.enqueue('c1');
      },
      cancel: t.fn('source.cancel', 'sync'),
    });
    const dest = new WritableStream({
      write: t.fn('sink.write', 'sync', () => {
        shutDown(ac, controller);
        return t.ticks(3).then(() => { throw new Error('sink write fails'); });
      }),
      close: t.fn('sink.close', 'sync'),
      abort: t.fn('sink.abort', 'sync'),
    });
    t.track('pipeTo', rs.pipeTo(dest, { signal: ac.signal, preventClose: how.endsWith('prevent-close') }));
  };
}

export default scenarios;
