// The streams a scenario made, and the state each ended in: when a scenario
// ends the harness logs `final <name> <state>` for every one of them, so a
// stream nobody reads to the end (a TransformStream's readable side after a
// pipe errored it, a tee branch) still shows whether it closed or errored,
// and with which error.
//
// Streams are registered when the scenario constructs them (the global
// constructors are wrapped in Proxies that only record the new object),
// comes by them through ReadableStream.from() or tee(), or names them with
// t.stream(name, stream). The state is read from the lib's own record
// (introspect.js), after the scenario has gone quiet: reading it queues
// nothing and calls no user code.
import { fmt } from './format.js';
import { streamState } from './introspect.js';

/** Where a new stream is reported: the running scenario's registry, if any. */
let sink = null;

export function registerStreamsWith(registry) {
  sink = registry;
}

export class StreamRegistry {
  constructor() {
    this.names = new Map(); // stream → name, in registration order
    this.counters = new Map();
  }

  /** Registers `stream` under `name` (renaming it if it already has a generated one). */
  name(stream, name) {
    if (stream && typeof stream === 'object') this.names.set(stream, name);
    return stream;
  }

  /** Registers a stream the scenario came by, under a generated name (ReadableStream#1, …). */
  adopt(stream, kind) {
    if (this.names.has(stream)) return;
    const n = (this.counters.get(kind) ?? 0) + 1;
    this.counters.set(kind, n);
    this.names.set(stream, `${kind}#${n}`);
  }

  /** `final <name> <state>` texts, in registration order; a TransformStream's sides count as its own. */
  finalStates() {
    const lines = [];
    for (const [stream, name] of this.names) {
      if (stream instanceof RealTransformStream) {
        for (const side of ['readable', 'writable']) {
          if (!this.names.has(stream[side])) lines.push(`final ${name}.${side} ${stateOf(stream[side])}`);
        }
      } else {
        lines.push(`final ${name} ${stateOf(stream)}`);
      }
    }
    return lines;
  }
}

function stateOf(stream) {
  const record = streamState(stream);
  if (!record) return '(not a stream)';
  const error = record.state === 'errored' || record.state === 'erroring' ? ` ${fmt(record.storedError)}` : '';
  return `${record.state}${error}${stream.locked ? ' locked' : ''}`;
}

const RealReadableStream = globalThis.ReadableStream;
const RealWritableStream = globalThis.WritableStream;
const RealTransformStream = globalThis.TransformStream;

function recording(Real, kind) {
  return new Proxy(Real, {
    construct(target, args, newTarget) {
      const stream = Reflect.construct(target, args, newTarget);
      sink?.adopt(stream, kind);
      return stream;
    },
    get(target, key, receiver) {
      if (key === 'from' && target === RealReadableStream) return from;
      return Reflect.get(target, key, receiver);
    },
  });
}

function from(iterable) {
  const stream = RealReadableStream.from(iterable);
  sink?.adopt(stream, 'ReadableStream');
  return stream;
}

const realTee = RealReadableStream.prototype.tee;
function tee() {
  const branches = Reflect.apply(realTee, this, []);
  for (const branch of branches) sink?.adopt(branch, 'ReadableStream');
  return branches;
}

/** Installs the recording constructors and tee() once, for the whole run. */
export function installStreamRecording() {
  for (const [Real, kind] of [[RealReadableStream, 'ReadableStream'], [RealWritableStream, 'WritableStream'], [RealTransformStream, 'TransformStream']]) {
    globalThis[kind] = recording(Real, kind);
  }
  Object.defineProperty(RealReadableStream.prototype, 'tee', { ...Object.getOwnPropertyDescriptor(RealReadableStream.prototype, 'tee'), value: tee });
}
