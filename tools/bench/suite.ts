// Which benchmark files and configurations a comparison runs.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { PINNED_NODE, ROOT } from '../lib/paths.ts';

export const BENCHMARK_DIR = join(ROOT, 'benchmark');

export type Config = Record<string, string | number>;

export interface BenchmarkFile {
  /** Relative to benchmark/, e.g. webstreams/tee.js */
  filename: string;
  path: string;
  configs: Config[];
}

/** Files of the categories (folders of benchmark/) whose name contains any filter. */
export function findBenchmarks(categories: string[], filters: string[], dir = BENCHMARK_DIR): string[] {
  const found: string[] = [];
  for (const category of categories) {
    const folder = join(dir, category);
    if (!existsSync(folder)) throw new Error(`no benchmark category '${category}' (${folder})`);
    for (const name of readdirSync(folder).sort()) {
      if (!name.endsWith('.js')) continue;
      const filename = `${category}/${name}`;
      if (filters.length === 0 || filters.some((f) => filename.includes(f))) found.push(filename);
    }
  }
  return found;
}

export interface Listing {
  keys: string[];
  configs: Config[];
  /** Node flags the file asks for (createBenchmark's options.flags), e.g. --expose-gc. */
  flags: string[];
}

/**
 * A file's configuration keys and the configurations it runs with the given
 * `key=value` settings (settings for keys it does not have are ignored), and
 * the Node flags its runs need. Asks the file itself, through
 * benchmark/common.js's listing mode.
 */
export function listConfigs(filename: string, sets: string[], dir = BENCHMARK_DIR): Listing {
  const r = spawnSync(PINNED_NODE, [join(dir, filename), ...sets], {
    env: { ...process.env, NODE_BENCHMARK_LIST_CONFIGS: '1', NODE_BENCHMARK_ALLOW_EXTRA: '1' },
    encoding: 'utf8',
    timeout: 60_000,
  });
  if (r.status !== 0) throw new Error(`${filename}: cannot list its configurations: ${(r.stderr || String(r.error)).trim()}`);
  const listed = JSON.parse(r.stdout) as Listing;
  if (!Array.isArray(listed.flags)) throw new Error(`${filename}: its listing has no flags (a benchmark/common.js from before they were listed?)`);
  return { keys: listed.keys, configs: listed.configs, flags: listed.flags };
}

/** The arguments that make a file run exactly one configuration. */
export function configArgs(config: Config): string[] {
  return Object.entries(config).map(([key, value]) => `${key}=${value}`);
}
