// A seeded generator of random stream programs for test/ordering/program.js.
// The same (seed, index) always gives the same program, so a failing case
// can be reproduced from its two numbers alone.

export type Mode = 'sync' | 'async' | 'late' | 'throw' | 'reject' | 'thenable' | 'thenable-reject' |
  'then-getter' | 'then-getter-fn' | 'value' | 'never';

export interface SourceSpec {
  type: 'default' | 'bytes' | 'from';
  hwm?: number;
  size?: boolean;
  start?: Mode;
  pull?: Mode;
  cancel?: Mode;
  startEnqueue?: number;
  startClose?: boolean;
  pullEnqueue?: number;
  pullCloseAfter?: number;
  chunks?: 'string' | 'number' | 'object' | 'u8' | 'undefined';
  autoAllocate?: number;
  byteFill?: 'enqueue' | 'respond' | 'respondWithNewView';
  fromKind?: 'array' | 'generator' | 'async-generator' | 'iterable-return' | 'promises';
  count?: number;
}

export interface Op {
  op: string;
  [key: string]: unknown;
}

export interface Program {
  source: SourceSpec;
  ops: Op[];
  /**
   * The `races` witnesses (tools/ordering/judge-programs.ts): op index →
   * turns to wait, unlogged, before that op; `<op>.late` of an enqueue,
   * close or error op → turns later the source's own calls from that op
   * on run, the other ops on time; `<op>.early` of such an op → how
   * many ops sooner its call runs (never before the source's previous
   * call); `<op>.body` of an iterate op
   * → turns its loop body takes after each value; callback name
   * (`source.pull`) → turns later its result settles; `source.next` →
   * turns an async generator source takes before each step.
   */
  delay?: Record<string, number>;
  /**
   * The byobRequest replay (tools/ordering/judge-programs.ts): when set,
   * each fill of a byte source logs whether it used a byobRequest, and fill
   * #i leaves the request unused (enqueues) where the entry is false.
   */
  byobReplay?: boolean[];
}

/** Everything a `fuzz:<feature>` deviation may name: op names and source types. */
export const OP_NAMES = [
  'wait', 'macrotask', 'enqueue', 'close', 'error', 'getReader', 'read', 'readByob', 'releaseLock', 'cancel',
  'tee', 'pipeThrough', 'pipeTo', 'abortSignal', 'iterate', 'response', 'makeWritable', 'getWriter', 'write',
  'writerClose', 'writerAbort', 'writerRelease', 'ready',
] as const;
export const FEATURES: readonly string[] = [...OP_NAMES, 'source:default', 'source:bytes', 'source:from'];
/** The ops that start a pipe. */
export const PIPE_OPS: readonly string[] = ['pipeTo', 'pipeThrough'];

export function programFeatures(p: Program): Set<string> {
  return new Set([`source:${p.source.type}`, ...p.ops.map((o) => o.op)]);
}

/** mulberry32: small, fast, and the same everywhere. */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

class Dice {
  readonly next: () => number;
  constructor(next: () => number) {
    this.next = next;
  }
  int(lo: number, hi: number): number {
    return lo + Math.floor(this.next() * (hi - lo + 1));
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)];
  }
  /** Picks a key with probability proportional to its weight. */
  weighted<K extends string>(weights: Record<K, number>): K {
    const entries = Object.entries(weights) as [K, number][];
    let r = this.next() * entries.reduce((n, [, w]) => n + w, 0);
    for (const [key, w] of entries) if ((r -= w) < 0) return key;
    return entries[entries.length - 1][0];
  }
}

// Common modes are likelier; the ones that end a stream early are rarer so
// most programs get past construction.
const MODE_WEIGHTS: Record<Mode, number> = {
  sync: 6, async: 4, late: 3, thenable: 2, 'then-getter': 1, 'then-getter-fn': 1, value: 1,
  throw: 1, reject: 1, 'thenable-reject': 1, never: 0.5,
};
const START_WEIGHTS: Record<Mode, number> = { ...MODE_WEIGHTS, throw: 0.3, never: 0.3 };

export const VIEW_TYPES = ['Int8Array', 'Uint8Array', 'Uint8ClampedArray', 'Int16Array', 'Uint16Array', 'Int32Array',
  'Uint32Array', 'Float16Array', 'Float32Array', 'Float64Array', 'BigInt64Array', 'BigUint64Array', 'DataView'];

function maybeMode(d: Dice, pAbsent: number, weights = MODE_WEIGHTS): Mode | undefined {
  return d.chance(pAbsent) ? undefined : d.weighted(weights);
}

function genSource(d: Dice): SourceSpec {
  const type = d.weighted({ default: 5, bytes: 3, from: 2 });
  if (type === 'from') {
    return { type, fromKind: d.pick(['array', 'generator', 'async-generator', 'iterable-return', 'promises'] as const), count: d.int(0, 4) };
  }
  const src: SourceSpec = { type };
  const hwm = d.pick([undefined, 0, 1, 2, 16]);
  if (hwm !== undefined) src.hwm = hwm;
  src.start = maybeMode(d, 0.3, START_WEIGHTS);
  src.pull = maybeMode(d, 0.25);
  src.cancel = maybeMode(d, 0.5);
  if (src.start) {
    src.startEnqueue = d.int(0, 3);
    if (d.chance(0.15)) src.startClose = true;
  }
  if (src.pull) {
    src.pullEnqueue = d.pick([0, 1, 1, 1, 1, 2, 2]);
    src.pullCloseAfter = d.int(1, 6);
  }
  if (type === 'default') {
    if (d.chance(0.3)) src.size = true;
    src.chunks = d.pick(['string', 'number', 'object', 'u8', 'undefined'] as const);
  } else {
    if (d.chance(0.3)) src.autoAllocate = d.pick([1, 4, 16]);
    src.byteFill = d.pick(['enqueue', 'respond', 'respondWithNewView'] as const);
  }
  for (const key of Object.keys(src) as (keyof SourceSpec)[]) if (src[key] === undefined) delete src[key];
  return src;
}

function genSink(d: Dice): Record<string, unknown> {
  const sink: Record<string, unknown> = {};
  for (const key of ['start', 'write', 'close', 'abort']) {
    const mode = maybeMode(d, key === 'write' ? 0.15 : 0.5);
    if (mode) sink[key] = mode;
  }
  const hwm = d.pick([undefined, 0, 1, 4]);
  if (hwm !== undefined) sink.hwm = hwm;
  if (d.chance(0.2)) sink.size = true;
  return sink;
}

function genTransform(d: Dice, drops: boolean): Record<string, unknown> {
  const spec: Record<string, unknown> = {};
  for (const key of ['start', 'transform', 'flush', 'cancel']) {
    const mode = maybeMode(d, key === 'transform' ? 0.2 : 0.6);
    if (mode) spec[key] = mode;
  }
  // With drops, '10' and '110' as well: a filter that drops some chunks,
  // not all. Opt-in, so that every seed without it draws the program it
  // always has (tests and docs name programs by seed and index).
  if (spec.transform) spec.enqueue = drops ? d.pick<number | string>([0, 1, 1, 2, '10', '110']) : d.pick([0, 1, 1, 2]);
  for (const key of ['wHwm', 'rHwm']) {
    const hwm = d.pick([undefined, 0, 1, 4]);
    if (hwm !== undefined) spec[key] = hwm;
  }
  return spec;
}

/** What a readable's chunks are, as far as an encoding stream cares: bytes to decode, text to encode, or neither. */
type ChunkKind = 'bytes' | 'text' | 'other';

interface Model {
  readables: { bytes: boolean; reader: 'none' | 'default' | 'byob'; locked: boolean; chunks: ChunkKind }[];
  writables: { writer: boolean }[];
  signals: number;
  controller: boolean;
  /** The readable side of the encoding stream the last op piped into, until an op has picked its readable (coding only). */
  coded?: number;
}

/** Which optional kinds of program to draw; each is opt-in, so that a seed without it draws the programs it always has. */
export interface GenOptions {
  /** transform()s that drop some of their chunks (see genTransform). */
  drops?: boolean;
  /** pipeThrough() into a TextEncoderStream or TextDecoderStream as well (see CODINGS). */
  coding?: boolean;
}

/** The optional kinds `options` turns on, in the order program names and suites list them. */
export function optionNames(options: GenOptions): string[] {
  return (['drops', 'coding'] as const).filter((k) => options[k]);
}

/** How reports and docs name program `index` of `seed`: `seed-S-N`, `drops-seed-S-N`, `coding-seed-S-N`… */
export function programName(seed: number, index: number, options: GenOptions = {}): string {
  return `${optionNames(options).map((k) => `${k}-`).join('')}seed-${seed}-${index}`;
}

/**
 * The encoding streams a pipeThrough may go through with `coding`: their
 * transform() is synchronous, so pipes take the series' fused paths into
 * them too. A decoder given strings (the default source's chunks) throws a
 * TypeError from transform(), and a fatal one errors on bytes that are not
 * UTF-8, so the error paths come with the data paths.
 */
export const CODINGS = ['encode', 'decode', 'decode', 'decode-fatal'] as const;

/**
 * Mostly the coding that takes the readable's chunks (a decoder for bytes,
 * an encoder for anything else, which it makes a string), so that chunks
 * cross it; sometimes one that errors on them.
 */
function pickCoding(d: Dice, chunks: ChunkKind | undefined): typeof CODINGS[number] {
  if (chunks === 'bytes') return d.weighted({ decode: 5, 'decode-fatal': 2, encode: 1 });
  return d.weighted({ encode: 5, decode: 1, 'decode-fatal': 1 });
}

function genOp(d: Dice, m: Model, { drops = false, coding = false }: GenOptions): Op {
  let ri = d.int(0, Math.max(0, m.readables.length - 1));
  // Often use what an encoding stream made, so that its chunks reach a reader or sink.
  if (m.coded !== undefined) {
    if (d.chance(0.6)) ri = m.coded;
    m.coded = undefined;
  }
  const r = m.readables[ri];
  const wi = d.int(0, Math.max(0, m.writables.length - 1));
  const w = m.writables[wi];
  const weights: Record<string, number> = {
    wait: 3, macrotask: 0.3,
    enqueue: m.controller ? 2 : 0.1, close: m.controller ? 0.7 : 0.05, error: m.controller ? 0.3 : 0.05,
    getReader: r && r.reader === 'none' && !r.locked ? 4 : 0.2,
    read: r?.reader === 'default' ? 6 : 0.2,
    readByob: r?.reader === 'byob' ? 6 : 0.1,
    releaseLock: r && r.reader !== 'none' ? 0.7 : 0.1,
    cancel: 0.7,
    tee: r && !r.locked && r.reader === 'none' ? 1.2 : 0.1,
    // With coding, pipeThrough is three times as likely, so that more programs have an encoding stream.
    pipeThrough: r && !r.locked && r.reader === 'none' ? (coding ? 4.5 : 1.5) : 0.1,
    pipeTo: r && !r.locked && r.reader === 'none' ? 1.5 : 0.1,
    abortSignal: m.signals > 0 ? 1 : 0,
    iterate: r && !r.locked && r.reader === 'none' ? 1 : 0.1,
    response: r && !r.locked && r.reader === 'none' ? 0.4 : 0.05,
    makeWritable: m.writables.length < 2 ? 0.6 : 0.1,
    getWriter: w && !w.writer ? 1.5 : 0.1,
    write: w?.writer ? 3 : 0.1,
    writerClose: w ? 0.5 : 0.05,
    writerAbort: w ? 0.3 : 0.05,
    writerRelease: w?.writer ? 0.3 : 0.05,
    ready: w?.writer ? 0.8 : 0.05,
  };
  const op = d.weighted(weights);
  const unlocked = r && !r.locked && r.reader === 'none';
  switch (op) {
    case 'wait': return { op, n: d.pick([1, 1, 2, 3, 5, 8]) };
    case 'macrotask': return { op };
    case 'enqueue': return d.chance(0.3) ? { op, respond: true } : { op };
    case 'close': case 'error': return { op };
    case 'getReader': {
      const mode = r?.bytes && d.chance(0.6) ? 'byob' : 'default';
      if (unlocked) r.reader = mode;
      return mode === 'byob' ? { op, r: ri, mode } : { op, r: ri };
    }
    case 'read': return { op, r: ri };
    case 'readByob': {
      const o: Op = { op, r: ri, view: d.pick(VIEW_TYPES), len: d.int(1, 8) };
      if (d.chance(0.2)) o.offset = d.int(1, 2);
      if (d.chance(0.2)) o.min = d.int(1, o.len as number);
      return o;
    }
    case 'releaseLock':
      if (r) r.reader = 'none';
      return { op, r: ri };
    case 'cancel': return { op, r: ri, via: d.pick(['stream', 'reader']) };
    case 'tee':
      if (unlocked) {
        r.locked = true;
        m.readables.push({ bytes: r.bytes, reader: 'none', locked: false, chunks: r.chunks }, { bytes: r.bytes, reader: 'none', locked: false, chunks: r.chunks });
      }
      return { op, r: ri };
    case 'pipeThrough': {
      const o: Op = coding && d.chance(0.4) ?
        { op, r: ri, coding: pickCoding(d, r?.chunks), ...pipeFlags(d) } :
        { op, r: ri, transform: genTransform(d, drops), ...pipeFlags(d) };
      if (unlocked) {
        r.locked = true;
        const chunks: ChunkKind = o.coding === undefined ? r.chunks : o.coding === 'encode' ? 'bytes' : 'text';
        m.readables.push({ bytes: false, reader: 'none', locked: false, chunks });
        if (o.coding !== undefined) m.coded = m.readables.length - 1;
      }
      return o;
    }
    case 'pipeTo': {
      const o: Op = { op, r: ri, ...pipeFlags(d) };
      if (w && !w.writer && d.chance(0.3)) o.w = wi;
      else {
        o.sink = genSink(d);
        m.writables.push({ writer: false });
      }
      const signal = d.weighted({ none: 6, 'pre-aborted': 1, later: 2 });
      if (signal !== 'none') o.signal = signal;
      if (signal === 'later') m.signals++;
      if (unlocked) r.locked = true;
      return o;
    }
    case 'abortSignal': return { op, k: d.int(0, Math.max(0, m.signals - 1)) };
    case 'iterate':
      if (unlocked) r.locked = true;
      return { op, r: ri, n: d.int(1, 4), exit: d.pick(['break', 'return', 'throw', 'end']), ...(d.chance(0.3) ? { preventCancel: true } : {}) };
    case 'response':
      if (unlocked) r.locked = true;
      return { op, r: ri, how: d.pick(['text', 'arrayBuffer', 'bytes']) };
    case 'makeWritable':
      m.writables.push({ writer: false });
      return { op, sink: genSink(d) };
    case 'getWriter':
      if (w) w.writer = true;
      return { op, w: wi };
    case 'writerRelease':
      if (w) w.writer = false;
      return { op, w: wi };
    default: return { op, w: wi };
  }
}

function pipeFlags(d: Dice): Record<string, boolean> {
  const flags: Record<string, boolean> = {};
  for (const key of ['preventClose', 'preventAbort', 'preventCancel']) if (d.chance(0.2)) flags[key] = true;
  return flags;
}

function sourceChunks(source: SourceSpec): ChunkKind {
  if (source.type === 'bytes' || source.chunks === 'u8') return 'bytes';
  return source.chunks === undefined || source.chunks === 'string' ? 'text' : 'other';
}

/** Program number `index` of the series `seed`, with the optional kinds of `options`. */
export function generateProgram(seed: number, index: number, options: GenOptions = {}): Program {
  // Mix both numbers so neighbouring seeds do not share programs.
  const d = new Dice(rng(Math.imul(seed ^ 0x9e3779b9, 0x85ebca6b) ^ Math.imul(index + 1, 0xc2b2ae35)));
  const source = genSource(d);
  const model: Model = {
    readables: [{ bytes: source.type === 'bytes', reader: 'none', locked: false, chunks: sourceChunks(source) }],
    writables: [],
    signals: 0,
    controller: source.type !== 'from' && (source.start !== undefined || source.pull !== undefined),
  };
  const ops: Op[] = [];
  const count = d.int(3, 18);
  for (let i = 0; i < count; i++) ops.push(genOp(d, model, options));
  return { source, ops };
}
