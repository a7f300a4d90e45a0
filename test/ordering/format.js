// Deterministic one-line summaries of values for the event log: no
// addresses, no stacks, no timing; getters are never invoked (reading one
// could itself be an observable step).
import { sinkDesiredSize } from './introspect.js';

const MAX_ITEMS = 16;
const MAX_STRING = 80;
const MAX_DEPTH = 3;

const TYPED_ARRAY = Object.getPrototypeOf(Uint8Array);

function bytesOf(view) {
  const n = Math.min(view.length, MAX_ITEMS);
  const items = [];
  for (let i = 0; i < n; i++) items.push(typeof view[i] === 'bigint' ? `${view[i]}n` : String(view[i]));
  if (view.length > n) items.push(`…+${view.length - n}`);
  return items.join(',');
}

function isDetached(buffer) {
  return buffer.detached === true;
}

function fmtError(err) {
  const code = typeof err.code === 'string' ? `[${err.code}]` : '';
  const cause = err.cause !== undefined ? ` cause=${fmt(err.cause, 1)}` : '';
  return `${err.name}${code}(${JSON.stringify(String(err.message).slice(0, MAX_STRING))})${cause}`;
}

function className(value) {
  const proto = Object.getPrototypeOf(value);
  if (proto === null) return 'null-proto';
  const ctor = Object.getOwnPropertyDescriptor(proto, 'constructor')?.value;
  return typeof ctor === 'function' && ctor.name ? ctor.name : 'Object';
}

// Stream objects summarized by what a caller can see without side effects.
function fmtStreamThing(name, value) {
  switch (name) {
    case 'ReadableStream':
    case 'WritableStream':
      return `${name}{locked:${value.locked}}`;
    case 'ReadableStreamDefaultController':
    case 'ReadableByteStreamController':
    case 'TransformStreamDefaultController':
      return `${name}{desiredSize:${fmt(value.desiredSize)}}`;
    case 'WritableStreamDefaultController':
      // A sink's controller has no public desiredSize; the value a writer
      // would read comes from the lib's own record (./introspect.js).
      return `${name}{aborted:${value.signal.aborted},desiredSize:${fmt(sinkDesiredSize(value))}}`;
    case 'TransformStream':
    case 'ReadableStreamDefaultReader':
    case 'ReadableStreamBYOBReader':
    case 'WritableStreamDefaultWriter':
    case 'ReadableStreamBYOBRequest':
      return name;
    default:
      return undefined;
  }
}

export function fmt(value, depth = 0) {
  switch (typeof value) {
    case 'undefined': return 'undefined';
    case 'boolean': return String(value);
    case 'number': return Object.is(value, -0) ? '-0' : String(value);
    case 'bigint': return `${value}n`;
    case 'string':
      return JSON.stringify(value.length > MAX_STRING ? `${value.slice(0, MAX_STRING)}…(${value.length})` : value);
    case 'symbol': return `Symbol(${value.description ?? ''})`;
    case 'function': return `fn:${value.name || 'anonymous'}`;
  }
  if (value === null) return 'null';
  if (value instanceof Promise) return 'Promise';
  if (value instanceof Error || (typeof DOMException === 'function' && value instanceof DOMException)) return fmtError(value);
  if (value instanceof ArrayBuffer || (typeof SharedArrayBuffer === 'function' && value instanceof SharedArrayBuffer)) {
    if (isDetached(value)) return `${className(value)}(detached)`;
    return `${className(value)}(${value.byteLength})[${bytesOf(new Uint8Array(value))}]`;
  }
  if (value instanceof TYPED_ARRAY) {
    if (isDetached(value.buffer)) return `${className(value)}(detached)`;
    return `${className(value)}(${value.byteOffset}+${value.length}/${value.buffer.byteLength})[${bytesOf(value)}]`;
  }
  if (value instanceof DataView) {
    if (isDetached(value.buffer)) return 'DataView(detached)';
    return `DataView(${value.byteOffset}+${value.byteLength}/${value.buffer.byteLength})` +
      `[${bytesOf(new Uint8Array(value.buffer, value.byteOffset, value.byteLength))}]`;
  }
  const name = className(value);
  const stream = fmtStreamThing(name, value);
  if (stream !== undefined) return stream;
  if (depth >= MAX_DEPTH) return Array.isArray(value) ? '[…]' : `${name}{…}`;
  if (Array.isArray(value)) {
    const items = value.slice(0, MAX_ITEMS).map((v) => fmt(v, depth + 1));
    if (value.length > MAX_ITEMS) items.push(`…+${value.length - MAX_ITEMS}`);
    return `[${items.join(',')}]`;
  }
  const parts = [];
  for (const key of Reflect.ownKeys(value)) {
    const desc = Object.getOwnPropertyDescriptor(value, key);
    if (!desc.enumerable) continue;
    const k = typeof key === 'symbol' ? `[${fmt(key)}]` : key;
    parts.push('value' in desc ? `${k}:${fmt(desc.value, depth + 1)}` : `${k}:<getter>`);
    if (parts.length >= MAX_ITEMS) break;
  }
  return `${name === 'Object' ? '' : name}{${parts.join(',')}}`;
}

export function fmtArgs(args) {
  return args.map((a) => fmt(a)).join(', ');
}
