// Interprets a stream program (plain JSON: what the fuzzer generates and what
// a saved, minimized fuzz case holds) on the harness's Context.
//
//   { source: {...}, ops: [{ op: 'read', r: 0 }, …] }
//
// Handles are indices taken modulo the number of live objects (readables,
// writables), so deleting any op while minimizing still leaves a valid
// program. An op that makes no sense in the current state still runs: the
// lib's TypeError is logged, which is itself behaviour to compare.

const VIEWS = {
  Int8Array, Uint8Array, Uint8ClampedArray, Int16Array, Uint16Array, Int32Array, Uint32Array,
  Float32Array, Float64Array, BigInt64Array, BigUint64Array, DataView,
  ...(typeof Float16Array === 'function' ? { Float16Array } : {}),
};

const MAX_PULLS = 12;

export function makeView(type, length, offset = 0) {
  const Ctor = VIEWS[type];
  if (!Ctor) throw new Error(`unknown view type '${type}' (known: ${Object.keys(VIEWS).join(', ')})`);
  const size = Ctor === DataView ? 1 : Ctor.BYTES_PER_ELEMENT;
  const buffer = new ArrayBuffer(size * (length + offset));
  return Ctor === DataView ? new DataView(buffer, offset, length) : new Ctor(buffer, offset * size, length);
}

export const VIEW_TYPES = Object.keys(VIEWS);

/** The n-th chunk of a kind; byte streams always get bytes. */
export function makeChunk(kind, n) {
  switch (kind) {
    case 'string': return `c${n}`;
    case 'number': return n;
    case 'object': return { n };
    case 'u8': return new Uint8Array((n % 3) + 1).fill(n & 0xff);
    case 'undefined': return undefined;
    default: throw new Error(`unknown chunk kind '${kind}'`);
  }
}

// The ops that are the source's own controller calls (the judge's
// `<op>.late` and `<op>.early` witnesses move them).
export const SOURCE_CALLS = new Set(['enqueue', 'close', 'error']);
// The ops that act on a readable stream (its `r`).
const SOURCE_STREAM_OPS = new Set(['getReader', 'read', 'readByob', 'releaseLock', 'cancel', 'tee', 'pipeThrough', 'pipeTo', 'iterate', 'response']);

// The source's own calls as the judge's race witnesses time them
// (program.delay). `<op>.late` of an enqueue, close or error op: the
// source's calls from that op on run that many turns later, in their
// order, while the program's other ops keep their time (a slower
// producer: what a pipe that reads sooner looks like to the source's
// controller). `<op>.early`: that op's call runs that many ops sooner
// (before them, in the same turn), but not before the source's previous
// call (a faster producer). A call moved past an op that reads, cancels,
// locks, pipes or tees the source's own stream reorders what the spec
// orders (error() then read() of the same stream rejects the read, at any
// timing): the witness logs it, so that its run fits nothing.
function sourceTiming(t, program, ops) {
  const delay = program.delay ?? {};
  let producer;
  let lateCalls = 0; // calls scheduled late and not yet run
  const run = (i, call) => {
    const late = delay[`${i}.late`];
    if (!late && !producer) return call();
    lateCalls++;
    producer = (producer ?? Promise.resolve()).then(() => late && t.ticks(late)).then(() => {
      lateCalls--;
      call();
    });
  };
  const early = new Map(); // op index → the source ops whose calls run before it
  let previousCall = -1;
  for (const [j, o] of ops.entries()) {
    if (!SOURCE_CALLS.has(o.op)) continue;
    if (delay[`${j}.early`]) {
      const at = Math.max(j - delay[`${j}.early`], previousCall + 1);
      early.set(at, [...(early.get(at) ?? []), j]);
    }
    previousCall = j;
  }
  const moved = new Set([...early.values()].flat());
  const ranEarly = new Set(); // moved ops whose calls have run, until the loop reaches them
  return {
    /** Before op i (on readable r): the calls moved before it, then whether a moved call passes it. */
    beforeOp(i, o, r, actionOf) {
      ranEarly.delete(i);
      for (const j of early.get(i) ?? []) {
        run(j, actionOf(ops[j]));
        ranEarly.add(j);
      }
      if (r?.name === 'r0' && SOURCE_STREAM_OPS.has(o.op) && (lateCalls > 0 || ranEarly.size > 0)) {
        t.log(`(a moved source call crosses op${i} on r0)`);
      }
    },
    /** Op i's source call, unless it was moved sooner. */
    call(i, action) {
      if (!moved.has(i)) run(i, action);
    },
  };
}

export async function runProgram(t, program) {
  const src = program.source ?? {};
  const ops = program.ops ?? [];
  const readables = [];   // { stream, reader, name }
  const writables = [];   // { stream, writer, name }
  const signals = [];     // AbortControllers of pipes, in creation order
  let controller;
  let chunkNo = 0;
  // Writers number their chunks apart from the source's: a pull moved by a
  // pipe must not renumber what a writer writes (the judge compares the
  // chunks each sink got).
  let writeNo = 100;
  let pulls = 0;
  const chunkKind = src.type === 'bytes' ? 'u8' : (src.chunks ?? 'string');
  // program.delay (the judge's race witnesses): op index → turns to wait
  // before that op; `<op>.body` → turns an iterate op's loop body takes after
  // each value; callback name → turns later its result settles;
  // `<op>.late` and `<op>.early` → sourceTiming.
  const fn = (name, mode, body) => t.fn(name, mode, body, program.delay?.[name]);
  const timing = sourceTiming(t, program, ops);
  // `<op>.shutdown` → turns later the pipe op starts performs its shutdown
  // action, on a lib with the judge's hook (tools/ordering/shutdown-hook.ts).
  const shutdownLater = (i, start) => {
    const turns = program.delay?.[`${i}.shutdown`];
    if (!turns) return start();
    globalThis.__orderingPipeShutdownLater = turns;
    try {
      return start();
    } finally {
      delete globalThis.__orderingPipeShutdownLater;
    }
  };
  const nextChunk = () => makeChunk(chunkKind, ++chunkNo);

  // program.byobReplay (the judge's byobRequest replay): when set, each fill
  // logs whether it used a byobRequest, and fill #i leaves one unused where
  // byobReplay[i] is false, so that a lib whose pipe read sooner can be run
  // with the choices the source made on the base.
  let fills = 0;
  const fillBytes = (c, label) => {
    const found = src.type === 'bytes' ? c.byobRequest : null;
    const replay = program.byobReplay;
    const fill = fills++;
    const responds = src.byteFill === 'respond' || src.byteFill === 'respondWithNewView';
    const req = found && responds && replay?.[fill] !== false ? found : null;
    if (replay) {
      t.log(`${label} fill#${fill} ${req ? 'byobRequest' : 'enqueue'}`);
      if (found && responds && !req) t.log(`${label} fill#${fill} left a byobRequest unused`);
    }
    if (req && src.byteFill === 'respond') {
      const view = req.view;
      const n = Math.min(view.byteLength, 2);
      new Uint8Array(view.buffer, view.byteOffset, n).fill(++chunkNo & 0xff);
      t.quietOp(`${label} respond`, () => req.respond(n));
    } else if (req && src.byteFill === 'respondWithNewView') {
      const view = req.view;
      const n = Math.min(view.byteLength, 1);
      const v = new Uint8Array(view.buffer, view.byteOffset, n).fill(++chunkNo & 0xff);
      t.quietOp(`${label} respondWithNewView`, () => req.respondWithNewView(v));
    } else {
      t.quietOp(`${label} enqueue`, () => c.enqueue(nextChunk()));
    }
  };

  // ---- the source
  let rs;
  if (src.type === 'from') {
    rs = t.op('ReadableStream.from', () => ReadableStream.from(makeIterable(t, src, nextChunk, program.delay?.['source.next'])));
  } else {
    const underlying = {};
    if (src.type === 'bytes') underlying.type = 'bytes';
    if (src.autoAllocate) underlying.autoAllocateChunkSize = src.autoAllocate;
    if (src.start) {
      underlying.start = fn('source.start', src.start, (c) => {
        controller = c;
        for (let i = 0; i < (src.startEnqueue ?? 0); i++) t.quietOp('start enqueue', () => c.enqueue(nextChunk()));
        if (src.startClose) t.quietOp('start close', () => c.close());
      });
    }
    if (src.pull) {
      underlying.pull = fn('source.pull', src.pull, (c) => {
        controller = c;
        pulls++;
        for (let i = 0; i < (src.pullEnqueue ?? 1); i++) fillBytes(c, 'pull');
        // Every source ends: a pipe from an endless sync source into a sync
        // sink would never yield the microtask queue.
        // The line after a close that took says that this pull closed r0
        // (the judge's read-ahead, tools/ordering/kinds.ts).
        if (pulls >= (src.pullCloseAfter ?? MAX_PULLS)) {
          t.quietOp('pull close', () => {
            c.close();
            t.log('source.pull closed r0');
          });
        }
      });
    }
    if (src.cancel) underlying.cancel = fn('source.cancel', src.cancel);
    const strategy = src.type === 'bytes'
      ? (src.hwm === undefined ? undefined : { highWaterMark: src.hwm })
      : t.strategy(src.hwm, src.size ? () => 2 : undefined);
    rs = t.op('new ReadableStream', () => new ReadableStream(underlying, strategy));
  }
  if (rs) readables.push({ stream: t.stream('r0', rs), reader: undefined, name: 'r0' });

  const R = (i) => readables.length ? readables[(i ?? 0) % readables.length] : undefined;
  const W = (i) => writables.length ? writables[(i ?? 0) % writables.length] : undefined;
  const addReadable = (stream) => {
    const name = `r${readables.length}`;
    readables.push({ stream: t.stream(name, stream), reader: undefined, name });
    return name;
  };
  const makeWritable = (spec) => {
    const name = `w${writables.length}`;
    const sink = {};
    for (const key of ['start', 'write', 'close', 'abort']) {
      if (spec?.[key]) sink[key] = fn(`${name}.${key}`, spec[key]);
    }
    const ws = t.op(`new WritableStream ${name}`, () => new WritableStream(sink, t.strategy(spec?.hwm, spec?.size ? () => 2 : undefined)));
    if (ws) writables.push({ stream: t.stream(name, ws), writer: undefined, name });
    return ws;
  };
  const makeTransform = (spec, name) => {
    const transformer = {};
    if (spec?.start) transformer.start = fn(`${name}.start`, spec.start);
    if (spec?.transform) {
      // spec.enqueue: how many times each call enqueues its chunk, or a
      // string of counts taken call by call, round and round ('10': every
      // other chunk dropped), so that a chain meets a filter mid-stream.
      let calls = 0;
      const times = () => typeof spec.enqueue === 'string' ?
        Number(spec.enqueue[calls++ % spec.enqueue.length]) :
        (spec.enqueue ?? 1);
      transformer.transform = fn(`${name}.transform`, spec.transform, (chunk, c) => {
        const n = times();
        for (let i = 0; i < n; i++) t.quietOp(`${name} enqueue`, () => c.enqueue(chunk));
      });
    }
    if (spec?.flush) transformer.flush = fn(`${name}.flush`, spec.flush);
    if (spec?.cancel) transformer.cancel = fn(`${name}.cancel`, spec.cancel);
    return t.stream(name, new TransformStream(transformer, t.strategy(spec?.wHwm), t.strategy(spec?.rHwm)));
  };

  // An encoding stream's sides are made by the lib (not through the
  // recorded constructors), so they are named here for their final states.
  const makeCoding = (coding, name) => {
    const stream = coding === 'encode' ? new TextEncoderStream() : new TextDecoderStream('utf-8', { fatal: coding === 'decode-fatal' });
    t.stream(`${name}.readable`, stream.readable);
    t.stream(`${name}.writable`, stream.writable);
    return stream;
  };

  let transforms = 0;
  const sourceAction = (o) => {
    switch (o.op) {
      case 'enqueue': return () => {
        if (!controller) t.log('(no controller)');
        else if (src.type === 'bytes' && o.respond) fillBytes(controller, 'ext');
        else t.quietOp('enqueue', () => controller.enqueue(nextChunk()));
      };
      case 'close': return () => {
        if (controller) t.quietOp('close', () => controller.close());
        else t.log('(no controller)');
      };
      case 'error': return () => {
        if (controller) t.quietOp('error', () => controller.error(new Error('controller error')));
        else t.log('(no controller)');
      };
    }
  };

  for (const [i, o] of ops.entries()) {
    if (program.delay?.[i]) await t.ticks(program.delay[i]);
    const r = R(o.r);
    const w = W(o.w);
    timing.beforeOp(i, o, r, sourceAction);
    const tag = `op${i} ${o.op}`;
    switch (o.op) {
      case 'wait':
        t.log(`${tag} ${o.n}`);
        await t.ticks(o.n ?? 1);
        break;
      case 'macrotask':
        t.log(tag);
        await t.macrotask();
        break;
      case 'enqueue':
      case 'close':
      case 'error':
        t.log(tag);
        timing.call(i, sourceAction(o));
        break;
      case 'getReader': {
        if (!r) break;
        t.log(`${tag} ${r.name} ${o.mode ?? 'default'}`);
        const reader = t.op('getReader', () => o.mode === 'byob' ? r.stream.getReader({ mode: 'byob' }) : r.stream.getReader());
        if (reader) {
          r.reader = reader;
          t.track(t.serial(`${r.name}.closed`), reader.closed);
        }
        break;
      }
      case 'read':
        if (!r) break;
        t.log(`${tag} ${r.name}`);
        if (!r.reader) t.log('(no reader)');
        else t.op(t.serial(`${r.name}.read`), () => r.reader.read());
        break;
      case 'readByob': {
        if (!r) break;
        t.log(`${tag} ${r.name} ${o.view}(${o.len})${o.min ? ` min=${o.min}` : ''}`);
        if (!r.reader) { t.log('(no reader)'); break; }
        const view = makeView(o.view, o.len ?? 4, o.offset ?? 0);
        t.op(t.serial(`${r.name}.readByob`), () => o.min ? r.reader.read(view, { min: o.min }) : r.reader.read(view));
        break;
      }
      case 'releaseLock':
        if (!r) break;
        t.log(`${tag} ${r.name}`);
        if (r.reader) t.op('releaseLock', () => r.reader.releaseLock());
        r.reader = undefined;
        break;
      case 'cancel':
        if (!r) break;
        t.log(`${tag} ${r.name} via ${o.via ?? 'stream'}`);
        if (o.via === 'reader' && r.reader) t.op(t.serial(`${r.name}.reader.cancel`), () => r.reader.cancel('why'));
        else t.op(t.serial(`${r.name}.cancel`), () => r.stream.cancel('why'));
        break;
      case 'tee': {
        if (!r) break;
        t.log(`${tag} ${r.name}`);
        const branches = t.op('tee', () => r.stream.tee());
        if (branches) t.log(`tee -> ${addReadable(branches[0])}, ${addReadable(branches[1])}`);
        break;
      }
      case 'pipeThrough': {
        if (!r) break;
        const name = `ts${++transforms}`;
        t.log(`${tag} ${r.name} through ${name}${o.coding ? ` (${o.coding})` : ''}`);
        const through = o.coding ? makeCoding(o.coding, name) : makeTransform(o.transform, name);
        const out = shutdownLater(i, () => t.op('pipeThrough', () => r.stream.pipeThrough(through, pipeOptions(o))));
        if (out) t.log(`pipeThrough -> ${addReadable(out)}`);
        break;
      }
      case 'pipeTo': {
        if (!r) break;
        const ws = o.sink === undefined && w ? w.stream : makeWritable(o.sink);
        t.log(`${tag} ${r.name}`);
        const options = pipeOptions(o);
        if (o.signal === 'pre-aborted') options.signal = AbortSignal.abort(new Error('pre-aborted'));
        else if (o.signal === 'later') {
          const ac = new AbortController();
          signals.push(ac);
          options.signal = ac.signal;
        }
        shutdownLater(i, () => t.op(t.serial('pipeTo'), () => r.stream.pipeTo(ws, options)));
        break;
      }
      case 'abortSignal': {
        t.log(tag);
        const ac = signals.length ? signals[(o.k ?? 0) % signals.length] : undefined;
        if (ac) ac.abort(new Error('signal abort'));
        else t.log('(no signal)');
        break;
      }
      case 'iterate': {
        if (!r) break;
        t.log(`${tag} ${r.name} n=${o.n} exit=${o.exit}${o.preventCancel ? ' preventCancel' : ''}`);
        t.track(t.serial('iterate'), iterate(t, r.stream, o, program.delay?.[`${i}.body`]));
        break;
      }
      case 'response': {
        if (!r) break;
        t.log(`${tag} ${r.name} ${o.how}`);
        t.op(t.serial('response'), () => new Response(r.stream)[o.how ?? 'text']());
        break;
      }
      case 'makeWritable':
        t.log(tag);
        makeWritable(o.sink);
        break;
      case 'getWriter':
        if (!w) { t.log(`${tag} (no writable)`); break; }
        t.log(`${tag} ${w.name}`);
        w.writer = t.op('getWriter', () => w.stream.getWriter());
        if (w.writer) {
          t.track(t.serial(`${w.name}.closed`), w.writer.closed);
          t.track(t.serial(`${w.name}.ready`), w.writer.ready);
        }
        break;
      case 'write':
        if (!w) { t.log(`${tag} (no writable)`); break; }
        t.log(`${tag} ${w.name}`);
        if (!w.writer) t.log('(no writer)');
        else t.op(t.serial(`${w.name}.write`), () => w.writer.write(makeChunk(chunkKind, ++writeNo)));
        break;
      case 'writerClose':
        if (!w) { t.log(`${tag} (no writable)`); break; }
        t.log(`${tag} ${w.name}`);
        if (!w.writer) t.op(t.serial(`${w.name}.stream.close`), () => w.stream.close());
        else t.op(t.serial(`${w.name}.close`), () => w.writer.close());
        break;
      case 'writerAbort':
        if (!w) { t.log(`${tag} (no writable)`); break; }
        t.log(`${tag} ${w.name}`);
        if (!w.writer) t.op(t.serial(`${w.name}.stream.abort`), () => w.stream.abort('why'));
        else t.op(t.serial(`${w.name}.abort`), () => w.writer.abort('why'));
        break;
      case 'writerRelease':
        if (!w) { t.log(`${tag} (no writable)`); break; }
        t.log(`${tag} ${w.name}`);
        if (w.writer) t.op('writer.releaseLock', () => w.writer.releaseLock());
        w.writer = undefined;
        break;
      case 'ready':
        if (!w) { t.log(`${tag} (no writable)`); break; }
        t.log(`${tag} ${w.name}`);
        if (w.writer) {
          t.log(`desiredSize = ${t.quietOp('desiredSize', () => w.writer.desiredSize)}`);
          t.track(t.serial(`${w.name}.ready`), w.writer.ready);
        } else t.log('(no writer)');
        break;
      default:
        throw new Error(`unknown program op '${o.op}'`);
    }
  }
}

function pipeOptions(o) {
  const options = {};
  for (const key of ['preventClose', 'preventAbort', 'preventCancel']) if (o[key]) options[key] = true;
  return options;
}

// `bodyTurns` (a race witness): the loop body takes that many turns after
// each value, as a body with asynchronous work of its own would.
async function iterate(t, stream, o, bodyTurns) {
  const label = t.serial('iter');
  let n = 0;
  for await (const value of stream.values({ preventCancel: !!o.preventCancel })) {
    t.log(`${label} value ${t.fmt(value)}`);
    if (bodyTurns) await t.ticks(bodyTurns);
    if (++n >= (o.n ?? 1)) {
      if (o.exit === 'break') break;
      if (o.exit === 'throw') throw new Error('iteration body throws');
      if (o.exit === 'return') return 'returned';
    }
  }
  return n;
}

// ReadableStream.from inputs: arrays, sync and async generators, and an
// iterable whose iterator has a logged return().
// `lateBy` (the judge's race witnesses, `source.next` in program.delay): an
// async generator takes that many turns before each step, its end included,
// as one awaiting something of its own would.
// The step that ends the iteration logs `source.next closed r0` (from()
// closes its stream on it), the counterpart of a pull source's
// `source.pull closed r0`: a pipe that read further may have taken that
// step on one side only (the judge's read-ahead, tools/ordering/kinds.ts).
function makeIterable(t, src, nextChunk, lateBy = 0) {
  const n = src.count ?? 3;
  const ended = () => t.log('source.next closed r0');
  switch (src.fromKind ?? 'array') {
    case 'array':
      return loggingEnd(Array.from({ length: n }, nextChunk), ended);
    case 'generator':
      return (function* gen() {
        for (let i = 0; i < n; i++) {
          t.log('generator next');
          yield nextChunk();
        }
        ended();
      })();
    case 'async-generator':
      return (async function* agen() {
        for (let i = 0; i < n; i++) {
          if (lateBy > 0) await t.ticks(lateBy);
          t.log('async generator next');
          yield nextChunk();
        }
        if (lateBy > 0) await t.ticks(lateBy);
        ended();
      })();
    case 'iterable-return': {
      let i = 0;
      return {
        [Symbol.iterator]() {
          return {
            next() {
              t.log('iterator.next');
              if (i++ < n) return { value: nextChunk(), done: false };
              ended();
              return { value: undefined, done: true };
            },
            return(v) {
              t.log('iterator.return');
              i = n;
              return { value: v, done: true };
            },
          };
        },
      };
    }
    case 'promises':
      return loggingEnd(Array.from({ length: n }, () => Promise.resolve(nextChunk())), ended);
    default:
      throw new Error(`unknown fromKind '${src.fromKind}'`);
  }
}

// The array still, with its own @@iterator (which from() must use, as
// GetIterator does) calling `ended` where the array's iterator is done.
function loggingEnd(array, ended) {
  const values = Array.prototype[Symbol.iterator];
  array[Symbol.iterator] = function iterator() {
    const it = values.call(this);
    return {
      next() {
        const result = it.next();
        if (result.done) ended();
        return result;
      },
    };
  };
  return array;
}
