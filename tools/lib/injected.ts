// How a tool starts Node on a given lib: the same thing bin/node-base and
// bin/node-patched do, for any lib directory.
import { existsSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import { libDir, PINNED_NODE, RUNTIME_REGISTER } from './paths.ts';

export interface Lib {
  /** A short name for reports: base, patched, layers-1..2, or a path. */
  name: string;
  dir: string;
}

/** `base`, `patched` (honours LAYERS=a..b), or a lib directory path. */
export function resolveLib(spec: string): Lib {
  let lib: Lib;
  if (spec === 'base') lib = { name: 'base', dir: libDir('base') };
  else if (spec === 'patched') {
    const layers = process.env.LAYERS;
    lib = layers ? { name: `layers-${layers}`, dir: libDir(`layers-${layers}`) } : { name: 'patched', dir: libDir('patched') };
  } else lib = { name: spec, dir: isAbsolute(spec) ? spec : resolve(spec) };
  if (!existsSync(resolve(lib.dir, 'manifest.json'))) {
    throw new Error(`lib '${lib.name}' is not built (${lib.dir}); run \`make build\``);
  }
  return lib;
}

/** argv and env that run `args` on the pinned Node with `lib` injected. */
export function injectedNode(lib: Lib, args: string[]): { command: string; args: string[]; env: NodeJS.ProcessEnv } {
  return {
    command: PINNED_NODE,
    args: ['--expose-internals', '--require', RUNTIME_REGISTER, ...args],
    env: { ...process.env, WEBSTREAMS_LIB: lib.dir },
  };
}
