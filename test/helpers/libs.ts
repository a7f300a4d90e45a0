// Test helpers: lib directories derived from the base with a deliberate
// change, and a way to run Node on them.
import { spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { libDir } from '../../tools/lib/paths.ts';
import { readLibDir, replaceOnce, writeLibDir, type Modules } from '../../tools/lib/libdir.ts';
import { injectedNode } from '../../tools/lib/injected.ts';

export { replaceOnce };

/** out/lib/test-<name>: the base with `edit` applied to its modules. */
export function variantLib(name: string, edit: (modules: Modules) => void): string {
  const { manifest, modules } = readLibDir(libDir('base'));
  edit(modules);
  const dir = libDir(`test-${name}`);
  writeLibDir(dir, { ...manifest, layers: [`test:${name}`] }, modules);
  return dir;
}

export function runOnLib(dir: string, args: string[], env: NodeJS.ProcessEnv = {}): SpawnSyncReturns<string> {
  const cmd = injectedNode({ name: dir, dir }, args, env.WEBSTREAMS_NODE);
  return spawnSync(cmd.command, cmd.args, { env: { ...cmd.env, ...env }, encoding: 'utf8', timeout: 120_000 });
}

// Breaks one of the base's enqueue functions of readablestream.js so that
// it drops every second chunk it is given.
function dropEverySecondChunkIn(fn: string, modules: Modules): void {
  const header = `function ${fn}(controller, chunk) {\n`;
  replaceOnce(modules, 'internal/webstreams/readablestream', header,
    `let ${fn}Dropped = false;\n${header}  ${fn}Dropped = !${fn}Dropped;\n  if (!${fn}Dropped) return;\n`);
}

/** The base's readableStreamDefaultControllerEnqueue, broken to drop every second chunk. */
export function dropEverySecondChunk(modules: Modules): void {
  dropEverySecondChunkIn('readableStreamDefaultControllerEnqueue', modules);
}

/** The base's readableByteStreamControllerEnqueue, broken to drop every second chunk. */
export function dropEverySecondByteChunk(modules: Modules): void {
  dropEverySecondChunkIn('readableByteStreamControllerEnqueue', modules);
}
