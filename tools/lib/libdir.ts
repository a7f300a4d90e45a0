// A lib directory: `manifest.json` plus `internal/webstreams/<module>.js`,
// the unit the runtime (runtime/register.cjs) injects into Node.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { libDir } from './paths.ts';

export const MODULE_PREFIX = 'internal/webstreams/';

export interface Manifest {
  /** `process.version` of the binary the modules run in. */
  nodeVersion: string;
  /** Where the base came from: the pinned binary or a checkout's lib/. */
  origin: string;
  /** Overlay layers applied on top of the base, in order (empty for the base). */
  layers: string[];
  /** Module ids, sorted. */
  modules: string[];
}

/** Module id → source text. */
export type Modules = Map<string, string>;

/** Replaces exactly one occurrence of `from` in module `id`; a text that is missing or repeated is an error. */
export function replaceOnce(modules: Modules, id: string, from: string, to: string): void {
  const text = modules.get(id);
  if (text === undefined) throw new Error(`no module ${id}`);
  const at = text.indexOf(from);
  if (at < 0 || text.indexOf(from, at + 1) >= 0) {
    throw new Error(`${id}: ${JSON.stringify(from.slice(0, 60))} occurs ${at < 0 ? 'nowhere' : 'more than once'}`);
  }
  modules.set(id, text.slice(0, at) + to + text.slice(at + from.length));
}

export function writeLibDir(dir: string, manifest: Omit<Manifest, 'modules'>, modules: Modules): void {
  rmSync(dir, { recursive: true, force: true });
  const ids = [...modules.keys()].sort();
  for (const id of ids) {
    const file = join(dir, `${id}.js`);
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, modules.get(id)!);
  }
  const full: Manifest = { ...manifest, modules: ids };
  writeFileSync(join(dir, 'manifest.json'), `${JSON.stringify(full, null, 2)}\n`);
}

export function readLibDir(dir: string): { manifest: Manifest; modules: Modules } {
  let manifest: Manifest;
  try {
    manifest = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8'));
  } catch (err) {
    throw new Error(`${dir} is not a lib directory (${(err as Error).message}); run \`make base\``);
  }
  const modules: Modules = new Map();
  for (const id of manifest.modules) {
    modules.set(id, readFileSync(join(dir, `${id}.js`), 'utf8'));
  }
  return { manifest, modules };
}

/**
 * A lib made from the lib in `fromDir` (whose manifest is `manifest`) with
 * `modules` in place of its own: out/lib/<its folder>+<tag>-<hash of the
 * modules>, its manifest's origin extended by `added`. Written once and
 * renamed into place, so runs in parallel share it. Returns the directory.
 */
export function writeDerivedLib(fromDir: string, manifest: Manifest, modules: Modules, tag: string, added: string): string {
  const hash = createHash('sha256');
  for (const [id, text] of [...modules].sort(([a], [b]) => a.localeCompare(b))) hash.update(`${id}\0${text}\0`);
  const dir = libDir(`${basename(fromDir)}+${tag}-${hash.digest('hex').slice(0, 12)}`);
  if (!existsSync(dir)) {
    const tmp = `${dir}.tmp-${process.pid}`;
    writeLibDir(tmp, { nodeVersion: manifest.nodeVersion, origin: `${manifest.origin}, with ${added}`, layers: manifest.layers }, modules);
    try {
      renameSync(tmp, dir);
    } catch (err) {
      // Another run put the same content there first.
      rmSync(tmp, { recursive: true, force: true });
      if (!existsSync(dir)) throw err;
    }
  }
  return dir;
}
