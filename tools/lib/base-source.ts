// Reads the base `internal/webstreams/*` sources: byte-exact out of the
// pinned binary, or from a Node checkout's lib/ when NODE_DIR is set.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { MODULE_PREFIX, type Modules } from './libdir.ts';

export interface BaseSource {
  nodeVersion: string;
  origin: string;
  modules: Modules;
}

// Runs inside the binary: its builtin sources are exactly what it executes.
const DUMP_SCRIPT = `
const { emitWarning } = process;
process.emitWarning = () => {};
const { internalBinding } = require('internal/test/binding');
process.emitWarning = emitWarning;
const natives = internalBinding('builtins').natives;
const modules = {};
for (const id of Object.keys(natives).sort()) {
  if (id.startsWith(${JSON.stringify(MODULE_PREFIX)})) modules[id] = natives[id];
}
process.stdout.write(JSON.stringify({ version: process.version, modules }));
`;

export function readFromBinary(node: string): BaseSource {
  if (!existsSync(node)) {
    throw new Error(`the pinned Node binary ${node} is missing; run \`npm ci\``);
  }
  const out = execFileSync(node, ['--expose-internals', '-e', DUMP_SCRIPT], {
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  const { version, modules } = JSON.parse(out) as { version: string; modules: Record<string, string> };
  if (Object.keys(modules).length === 0) {
    throw new Error(`${node} has no ${MODULE_PREFIX}* builtins`);
  }
  return { nodeVersion: version, origin: `binary ${node}`, modules: new Map(Object.entries(modules)) };
}

export function readFromCheckout(nodeDir: string): BaseSource {
  const dir = join(nodeDir, 'lib', MODULE_PREFIX);
  const header = join(nodeDir, 'src', 'node_version.h');
  if (!existsSync(dir) || !existsSync(header)) {
    throw new Error(`NODE_DIR=${nodeDir} is not a Node checkout (no lib/${MODULE_PREFIX} or src/node_version.h)`);
  }
  const modules: Modules = new Map();
  for (const name of readdirSync(dir).sort()) {
    if (name.endsWith('.js')) {
      modules.set(`${MODULE_PREFIX}${name.slice(0, -3)}`, readFileSync(join(dir, name), 'utf8'));
    }
  }
  return { nodeVersion: nodeVersionOf(header), origin: `checkout ${nodeDir}`, modules };
}

/** `vX.Y.Z` from a Node tree's src/node_version.h. */
export function nodeVersionOf(header: string): string {
  const text = readFileSync(header, 'utf8');
  const part = (name: string) => {
    const match = new RegExp(`#define NODE_${name}_VERSION (\\d+)`).exec(text);
    if (!match) throw new Error(`${header}: no NODE_${name}_VERSION`);
    return match[1];
  };
  return `v${part('MAJOR')}.${part('MINOR')}.${part('PATCH')}`;
}
