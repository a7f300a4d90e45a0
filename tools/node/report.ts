// What a build produced: the binary's version, and whether the webstreams
// lib it embeds (js2c) is the tree's, byte for byte, so a stale or partial
// build cannot pass for the patched one.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { MODULE_PREFIX } from '../lib/libdir.ts';

export interface BinaryReport {
  path: string;
  version: string;
  /** `matches lib/internal/webstreams (9 modules)`, or which modules differ. */
  lib: string;
  embedsTreeLib: boolean;
}

const PROBE = `
process.emitWarning = () => {};
const { internalBinding } = require('internal/test/binding');
const natives = internalBinding('builtins').natives;
const out = {};
for (const id of Object.keys(natives)) if (id.startsWith(${JSON.stringify(MODULE_PREFIX)})) out[id] = natives[id];
process.stdout.write(JSON.stringify(out));
`;

/** `node --version` of `path`, and its embedded internal/webstreams/* compared with `dir`'s lib/. */
export function reportBinary(path: string, dir: string): BinaryReport {
  if (!existsSync(path)) throw new Error(`${path} does not exist`);
  const version = spawnSync(path, ['--version'], { encoding: 'utf8', timeout: 60_000 });
  if (version.status !== 0) throw new Error(`${path} --version failed: ${version.stderr || version.error?.message}`);
  const probe = spawnSync(path, ['--expose-internals', '-e', PROBE], { encoding: 'utf8', timeout: 60_000, maxBuffer: 64 << 20 });
  if (probe.status !== 0) {
    return { path, version: version.stdout.trim(), lib: `probe failed: ${(probe.stderr || String(probe.error)).trim().split('\n')[0]}`, embedsTreeLib: false };
  }
  const embedded = JSON.parse(probe.stdout) as Record<string, string>;
  const libDir = join(dir, 'lib', MODULE_PREFIX);
  const tree = readdirSync(libDir).filter((n) => n.endsWith('.js')).map((n) => `${MODULE_PREFIX}${n.slice(0, -3)}`);
  const differ = [...new Set([...tree, ...Object.keys(embedded)])].sort()
    .filter((id) => embedded[id] !== (tree.includes(id) ? readFileSync(join(dir, 'lib', `${id}.js`), 'utf8') : undefined));
  return {
    path,
    version: version.stdout.trim(),
    lib: differ.length ? `DIFFERS from the tree's lib/ in ${differ.join(', ')}` : `matches the tree's lib/${MODULE_PREFIX} (${tree.length} modules)`,
    embedsTreeLib: differ.length === 0,
  };
}
