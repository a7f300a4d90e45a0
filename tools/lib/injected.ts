// How a tool starts Node on a given lib: the same thing bin/node-base and
// bin/node-patched do, for any lib directory, in the binary of the Node
// version the lib was made for.
import { existsSync, readFileSync } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';
import { listLayers, parseLayerRange, stateLibName } from './layers.ts';
import { libDir, LIB_OVERLAY, PINNED_NODE, RUNTIME_REGISTER } from './paths.ts';
import { nodeForVersion } from './releases.ts';

export interface Lib {
  /** A short name for reports: base, patched, layers-2, or a path. */
  name: string;
  dir: string;
}

function builtLib(name: string): Lib {
  return { name, dir: libDir(name) };
}

/**
 * `base`, `patched` (the new side of LAYERS=a..b: the state after layer b),
 * `before` (its old side: the state after layer a-1, the base for a = 1),
 * or a lib directory path.
 */
export function resolveLib(spec: string): Lib {
  let lib: Lib;
  if (spec === 'patched' || spec === 'before') {
    const count = listLayers(LIB_OVERLAY).length;
    const { from, to } = parseLayerRange(process.env.LAYERS, count);
    lib = builtLib(stateLibName(spec === 'patched' ? to : from - 1, count));
  } else if (spec === 'base') lib = builtLib('base');
  else lib = { name: spec, dir: isAbsolute(spec) ? spec : resolve(spec) };
  if (!existsSync(join(lib.dir, 'manifest.json'))) {
    throw new Error(`lib '${lib.name}' is not built (${lib.dir}); run \`make build\``);
  }
  return lib;
}

/**
 * The Node binary for a lib: WEBSTREAMS_NODE, else the release its manifest
 * names (the pinned Node when there is no readable manifest: the runtime
 * then says what is wrong with the lib).
 */
export function nodeFor(lib: Lib): string {
  if (process.env.WEBSTREAMS_NODE) return process.env.WEBSTREAMS_NODE;
  let nodeVersion: string;
  try {
    nodeVersion = (JSON.parse(readFileSync(join(lib.dir, 'manifest.json'), 'utf8')) as { nodeVersion: string }).nodeVersion;
  } catch {
    return PINNED_NODE;
  }
  return nodeForVersion(nodeVersion);
}

/** argv and env that run `args` on the lib's Node (or `node`) with `lib` injected. */
export function injectedNode(lib: Lib, args: string[], node?: string): { command: string; args: string[]; env: NodeJS.ProcessEnv } {
  return {
    command: node ?? nodeFor(lib),
    args: ['--expose-internals', '--require', RUNTIME_REGISTER, ...args],
    env: { ...process.env, WEBSTREAMS_LIB: lib.dir },
  };
}
