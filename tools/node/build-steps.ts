// ./configure and the build of a Node tree (`make -j`).
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { ROOT } from '../lib/paths.ts';

export class BuildError extends Error {}

/** gyp-next as node-gyp ships it: the stand-in when a tree lacks tools/gyp (Debian's DFSG tarball strips it). */
export const NODE_GYP_PYLIB = join(ROOT, 'node_modules', 'node-gyp', 'gyp', 'pylib');

/** Splits CONFIGURE_FLAGS like a shell would for plain words and quotes (no expansions). */
export function splitFlags(text: string | undefined): string[] {
  if (!text) return [];
  const out: string[] = [];
  let word: string | undefined;
  let quote: string | undefined;
  for (const ch of text) {
    if (quote) {
      if (ch === quote) quote = undefined;
      else word += ch;
    } else if (ch === '"' || ch === "'") {
      quote = ch;
      word ??= '';
    } else if (/\s/.test(ch)) {
      if (word !== undefined) out.push(word);
      word = undefined;
    } else {
      word = (word ?? '') + ch;
    }
  }
  if (quote) throw new BuildError(`CONFIGURE_FLAGS has an unclosed ${quote}`);
  if (word !== undefined) out.push(word);
  return out;
}

function run(cmd: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = {}): number {
  // The child's output goes to our stderr: stdout is for the final report.
  const r = spawnSync(cmd, args, { cwd, stdio: ['ignore', 2, 2], env: { ...process.env, ...env } });
  if (r.error) throw new BuildError(`cannot run ${cmd}: ${r.error.message}`);
  return r.status ?? 1;
}

// The interpreters ./configure itself tries, in its order.
const PYTHONS = ['python3.14', 'python3.13', 'python3.12', 'python3.11', 'python3.10', 'python3.9', 'python3'];

/**
 * The Python ./configure would pick, but one that actually runs: `command -v`
 * in ./configure also accepts a pyenv shim for a version that is not
 * installed, which then fails. PYTHON=… overrides.
 */
export function findPython(): string {
  if (process.env.PYTHON) return process.env.PYTHON;
  for (const python of PYTHONS) {
    const r = spawnSync(python, ['-c', 'import sys; print("%d.%d" % sys.version_info[:2])'], { encoding: 'utf8' });
    const minor = Number(/^3\.(\d+)$/.exec(r.stdout?.trim() ?? '')?.[1]);
    if (r.status === 0 && minor >= 9 && minor <= 14) return python;
  }
  throw new BuildError(`no working Python 3.9–3.14 found (tried ${PYTHONS.join(', ')}); set PYTHON=/path/to/python3`);
}

export interface Configured {
  argv: string[];
  /** Set when the tree had no tools/gyp and node-gyp's copy stood in. */
  gypFrom?: string;
  ninja: boolean;
}

export function configure(dir: string, flags: string[], log: (m: string) => void): Configured {
  if (!existsSync(join(dir, 'configure'))) throw new BuildError(`${dir}/configure is missing; is it a Node source tree?`);
  const env: NodeJS.ProcessEnv = {};
  let gypFrom: string | undefined;
  if (!existsSync(join(dir, 'tools', 'gyp', 'pylib'))) {
    if (!existsSync(NODE_GYP_PYLIB)) throw new BuildError(`${dir} has no tools/gyp and ${NODE_GYP_PYLIB} is missing; run \`npm ci\``);
    gypFrom = NODE_GYP_PYLIB;
    env.PYTHONPATH = [NODE_GYP_PYLIB, process.env.PYTHONPATH].filter(Boolean).join(':');
    log(`tools/gyp is missing in this tree; using node-gyp's gyp-next (${NODE_GYP_PYLIB})`);
  }
  // ./configure is a sh/Python polyglot; run by Python directly it skips its interpreter search.
  const python = findPython();
  const argv = [python, './configure', ...flags];
  log(`${argv.join(' ')}`);
  const status = run(python, ['./configure', ...flags], dir, env);
  if (status !== 0) throw new BuildError(`./configure exited with ${status} in ${dir}`);
  return { argv, gypFrom, ninja: flags.includes('--ninja') };
}

export function jobs(): number {
  const n = Number(process.env.JOBS);
  return Number.isInteger(n) && n > 0 ? n : availableParallelism();
}

/** The full build: `make -j<n>` (Node's Makefile drives ninja when configured with --ninja). */
export function makeNode(dir: string, log: (m: string) => void): string {
  const n = jobs();
  log(`make -j${n} (a full Node build: hours on 2 cores, much less with ccache or more cores)`);
  const started = Date.now();
  const status = run('make', [`-j${n}`], dir);
  if (status !== 0) throw new BuildError(`make -j${n} exited with ${status} in ${dir}`);
  log(`make finished in ${((Date.now() - started) / 60000).toFixed(1)} min`);
  const binary = join(dir, 'out', 'Release', 'node');
  if (!existsSync(binary)) throw new BuildError(`make succeeded but ${binary} is missing`);
  return binary;
}
