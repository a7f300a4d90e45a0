// What a series can stand on (`BASE=`), read into a lib directory:
//
//   pinned            out/lib/base (`make base`: the pinned binary, or NODE_DIR's lib)
//   node@x.y.z        that release's binary from npm, its builtin sources
//   <Node checkout>   its lib/internal/webstreams and typings/ (a dir with src/node_version.h)
//   <lib directory>   a dir with manifest.json (as `make base`/`make build` write them)
//
// Every base but `pinned` is cached in out/bases/<name>/.
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { readFromBinary, readFromCheckout, type BaseSource } from './base-source.ts';
import { readLibDir, writeLibDir, type Manifest, type Modules } from './libdir.ts';
import { NODE_TYPINGS } from './fixture-paths.ts';
import { OUT, libDir } from './paths.ts';
import { releaseNode } from './releases.ts';

export interface Base {
  /** The spec as given, normalized (`pinned`, `node@x.y.z`, an absolute path). */
  spec: string;
  nodeVersion: string;
  /** Where the sources came from, for reports. */
  origin: string;
  modules: Modules;
  /** The lib directory holding them. */
  dir: string;
  /** Node's typings/ to check layers against. */
  typings: string;
}

/** `series.json` of an overlay root: what it stands on. The main series has none (pinned). */
export const SERIES_FILE = 'series.json';

export function seriesBase(root: string): string {
  const file = join(root, SERIES_FILE);
  if (!existsSync(file)) return 'pinned';
  const spec: unknown = JSON.parse(readFileSync(file, 'utf8')).base;
  if (typeof spec !== 'string' || !spec) throw new Error(`${file}: expected { "base": "<spec>" }`);
  return spec;
}

export function writeSeriesBase(root: string, spec: string): void {
  writeFileSync(join(root, SERIES_FILE), `${JSON.stringify({ base: spec }, null, 2)}\n`);
}

function cached(name: string, source: BaseSource, typings: string, spec: string): Base {
  const dir = join(OUT, 'bases', name);
  const manifest: Omit<Manifest, 'modules'> = { nodeVersion: source.nodeVersion, origin: source.origin, layers: [] };
  writeLibDir(dir, manifest, source.modules);
  return { spec, nodeVersion: source.nodeVersion, origin: source.origin, modules: source.modules, dir, typings };
}

export function resolveBase(spec: string | undefined): Base {
  const s = spec === undefined || spec === '' ? 'pinned' : spec;
  if (s === 'pinned') {
    const dir = libDir('base');
    const { manifest, modules } = readLibDir(dir);
    return { spec: s, nodeVersion: manifest.nodeVersion, origin: manifest.origin, modules, dir, typings: NODE_TYPINGS };
  }
  const release = /^node@(\d+\.\d+\.\d+)$/.exec(s);
  if (release) return cached(`node-${release[1]}`, readFromBinary(releaseNode(release[1])), NODE_TYPINGS, s);
  if (/^node@/.test(s)) throw new Error(`BASE=${s}: expected an exact release like node@26.10.0`);
  const path = resolve(s);
  if (!existsSync(path)) throw new Error(`BASE=${s}: expected pinned, node@x.y.z, a Node checkout or a lib directory; ${path} does not exist`);
  if (existsSync(join(path, 'src', 'node_version.h'))) {
    const typings = existsSync(join(path, 'typings', 'primordials.d.ts')) ? join(path, 'typings') : NODE_TYPINGS;
    const hash = createHash('sha256').update(path).digest('hex').slice(0, 8);
    return cached(`checkout-${basename(path)}-${hash}`, readFromCheckout(path), typings, path);
  }
  if (existsSync(join(path, 'manifest.json'))) {
    const { manifest, modules } = readLibDir(path);
    return { spec: path, nodeVersion: manifest.nodeVersion, origin: `lib directory ${path}`, modules, dir: path, typings: NODE_TYPINGS };
  }
  throw new Error(`BASE=${s}: ${path} is neither a Node checkout (src/node_version.h) nor a lib directory (manifest.json)`);
}
