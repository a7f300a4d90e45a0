// What a build produced: the binary's version and whether it carries
// internalBinding('webstreams'), or the binding object's registration symbols.
import { spawnSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { BINDING_NAME } from './wiring.ts';

export interface BinaryReport {
  path: string;
  version: string;
  /** Functions of internalBinding('webstreams'), or the reason there are none. */
  binding: string;
}

const PROBE = `
process.emitWarning = () => {};
const { internalBinding } = require('internal/test/binding');
let keys;
try { keys = Object.keys(internalBinding(${JSON.stringify(BINDING_NAME)})).sort().join(', '); } catch (e) { keys = 'missing (' + e.message + ')'; }
process.stdout.write(keys);
`;

export function reportBinary(path: string): BinaryReport {
  if (!existsSync(path)) throw new Error(`${path} does not exist`);
  const version = spawnSync(path, ['--version'], { encoding: 'utf8', timeout: 60_000 });
  if (version.status !== 0) throw new Error(`${path} --version failed: ${version.stderr || version.error?.message}`);
  const probe = spawnSync(path, ['--expose-internals', '-e', PROBE], { encoding: 'utf8', timeout: 60_000 });
  const binding = probe.status === 0 ? probe.stdout.trim() : `probe failed: ${(probe.stderr || String(probe.error)).trim().split('\n')[0]}`;
  return { path, version: version.stdout.trim(), binding };
}

export interface ObjectReport {
  path: string;
  bytes: number;
  /** Symbols that show the object registers the binding and carries the Fast API path. */
  symbols: Record<string, boolean>;
}

/** Defined symbols of an object file (nm -C), or an error if nm cannot read it. */
export function definedSymbols(path: string): string[] {
  const r = spawnSync('nm', ['-C', '--defined-only', path], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  if (r.status !== 0) throw new Error(`nm ${path} failed: ${r.stderr || r.error?.message}`);
  return r.stdout.split('\n').map((l) => l.replace(/^[0-9a-f]*\s+\w\s+/, '')).filter(Boolean);
}

export function undefinedSymbols(path: string): string[] {
  const r = spawnSync('nm', ['-C', '--undefined-only', path], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  if (r.status !== 0) throw new Error(`nm ${path} failed: ${r.stderr || r.error?.message}`);
  return r.stdout.split('\n').map((l) => l.replace(/^\s*U\s+/, '').trim()).filter(Boolean);
}

export const OBJECT_SYMBOLS = {
  register: `_register_${BINDING_NAME}()`,
  externalReferences: `_register_external_reference_${BINDING_NAME}(node::ExternalReferenceRegistry*)`,
  fastApi: 'node::webstreams::FastIsNonThenable(v8::Local<v8::Value>, v8::Local<v8::Value>)',
};

export function reportObject(path: string): ObjectReport {
  const defined = new Set(definedSymbols(path));
  const symbols = Object.fromEntries(Object.entries(OBJECT_SYMBOLS).map(([k, s]) => [k, defined.has(s)]));
  return { path, bytes: statSync(path).size, symbols };
}
