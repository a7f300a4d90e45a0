// A series kept beside the main one (README "Series on other release
// lines"): its overlay root names its base and how it is published in
// <root>/series.json, e.g. lib-overlay-v24/series.json:
//
//   { "base": "node@24.21.0", "patches": "patches-v24",
//     "pr": { "base": "v24.x-staging", "titlePrefix": "[v24.x backport] " } }
//
// lib-overlay-fixes/ is one too: the base's bugs the main series fixes, as
// standalone PRs against main on the pinned base ("base": "pinned", and
// "pr": { "independent": true }: each PR on the PR base alone, not stacked).
//
// A series may also declare the files it ships that differ from another
// series' copy ("adapted", tools/series/copies.ts).
//
// The tools take a series by name (`--series v24`: lib-overlay-v24/).
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { SERIES_FILE } from '../lib/base-spec.ts';
import { listLayers, stateLibName, type Layer } from '../lib/layers.ts';
import { libDir, ROOT } from '../lib/paths.ts';

export interface SeriesConfig {
  name: string;
  /** The overlay root, lib-overlay-<name>/. */
  root: string;
  /** `node@x.y.z`: what the series stands on. */
  base: string;
  /** The committed patches, <ROOT>/<patches>/. */
  patches: string;
  /** The branch the first PR targets, and what each PR title starts with. */
  prBase: string;
  titlePrefix: string;
  /** Each PR stands on prBase alone (the fixes), instead of on the PR before it. */
  prIndependent: boolean;
  /**
   * Expectations for Node's tests in that release's own binary: the
   * series' own file, or the main series' for a series on the pinned base.
   */
  nodeTestExpectations: string;
  /** Files under <layer>/node/ whose copy differs from another series', and why. */
  adapted: Record<string, string>;
  layers: Layer[];
}

const ROOT_PREFIX = 'lib-overlay-';

/** The series whose overlay root `dir` is (lib-overlay-v24: v24); undefined for lib-overlay/ itself. */
export function seriesOfRoot(dir: string): string | undefined {
  const name = basename(resolve(dir));
  return name.startsWith(ROOT_PREFIX) ? name.slice(ROOT_PREFIX.length) : undefined;
}

export function readSeries(name: string): SeriesConfig {
  if (!/^[a-z0-9][a-z0-9.-]*$/.test(name)) throw new Error(`series '${name}': expected a name like v24`);
  const root = join(ROOT, `${ROOT_PREFIX}${name}`);
  const file = join(root, SERIES_FILE);
  if (!existsSync(file)) throw new Error(`series '${name}': ${file} does not exist`);
  const json = JSON.parse(readFileSync(file, 'utf8')) as {
    base?: unknown; patches?: unknown; adapted?: unknown; pr?: { base?: unknown; titlePrefix?: unknown; independent?: unknown };
  };
  const str = (v: unknown, what: string): string => {
    if (typeof v !== 'string' || !v) throw new Error(`${file}: expected a string ${what}`);
    return v;
  };
  const base = str(json.base, '"base"');
  const adapted = json.adapted ?? {};
  if (typeof adapted !== 'object' || adapted === null || Array.isArray(adapted)) throw new Error(`${file}: expected "adapted" to map paths to reasons`);
  for (const [path, why] of Object.entries(adapted)) str(why, `reason for "adapted" ${path}`);
  const ownExpectations = join(ROOT, 'test', `series-${name}`, 'node-tests-expectations.json');
  return {
    name,
    root,
    base,
    patches: join(ROOT, str(json.patches, '"patches"')),
    prBase: str(json.pr?.base, '"pr.base"'),
    titlePrefix: typeof json.pr?.titlePrefix === 'string' ? json.pr.titlePrefix : '',
    prIndependent: json.pr?.independent === true,
    nodeTestExpectations: base === 'pinned' && !existsSync(ownExpectations) ? join(ROOT, 'test', 'node-tests-expectations.json') : ownExpectations,
    adapted: adapted as Record<string, string>,
    layers: listLayers(root),
  };
}

/** The names of the series kept beside the main one (every lib-overlay-<name>/ with a series.json). */
export function listSeriesNames(): string[] {
  return readdirSync(ROOT, { withFileTypes: true })
    .filter((e) => e.isDirectory() && e.name.startsWith(ROOT_PREFIX) && existsSync(join(ROOT, e.name, SERIES_FILE)))
    .map((e) => e.name.slice(ROOT_PREFIX.length))
    .sort();
}

/** The lib directory `tools/build.ts --overlay <root>` writes for the state after layer k (0: the base's own). */
export function seriesStateLib(s: SeriesConfig, k: number, baseDir: string): string {
  return k === 0 ? baseDir : libDir(stateLibName(k, s.layers.length, basename(s.root)));
}
