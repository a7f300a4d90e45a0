// Finds the test files of a WPT folder (streams/ by default) and reads
// their `// META:` headers.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';

export interface WptFile {
  /** Path relative to the folder searched, e.g. `piping/general.any.js` in streams/. */
  path: string;
  /** The file, as an absolute path. */
  file: string;
  /** Scripts to run before the test, as absolute file paths, in order. */
  scripts: string[];
  /** Why the file cannot run in Node, when it cannot. */
  notApplicable?: string;
  long: boolean;
  title?: string;
}

// Scopes of `// META: global=` that Node's WPT setup emulates (it pretends
// to be a Window; worker-style scopes run the same way in a Worker thread).
const NODE_SCOPES = new Set(['window', 'worker', 'dedicatedworker', 'jsshell']);

function walk(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...walk(full));
    else if (entry.name.endsWith('.any.js')) out.push(full);
  }
  return out;
}

export function parseMeta(source: string): Map<string, string[]> {
  const meta = new Map<string, string[]>();
  for (const match of source.matchAll(/^\/\/ META: ([^=]+?)=(.+)$/gm)) {
    const key = match[1].trim();
    meta.set(key, [...(meta.get(key) ?? []), match[2].trim()]);
  }
  return meta;
}

// Aliases WPT's server applies (tools/serve in WPT: resources/WebIDLParser.js).
const SERVER_ALIASES: Record<string, string> = {
  '/resources/WebIDLParser.js': '/resources/webidl2/lib/webidl2.js',
};

/** Resolves a META script the way WPT's server does: `/x` from the WPT root, else from the test's folder. */
export function resolveScript(wptRoot: string, testFile: string, script: string): string {
  script = SERVER_ALIASES[script] ?? script;
  return script.startsWith('/') ? join(wptRoot, script) : join(dirname(testFile), script);
}

export function findWptFiles(wptRoot: string, dir: string): WptFile[] {
  const folder = join(wptRoot, dir);
  return walk(folder)
    .sort()
    .map((file) => {
      const meta = parseMeta(readFileSync(file, 'utf8'));
      if (meta.has('variant')) throw new Error(`${file}: META variant is not supported yet`);
      const scopes = (meta.get('global')?.[0] ?? 'window,dedicatedworker').split(',').map((s) => s.trim());
      const applicable = scopes.some((s) => NODE_SCOPES.has(s));
      return {
        path: relative(folder, file),
        file,
        scripts: (meta.get('script') ?? []).map((s) => resolveScript(wptRoot, file, s)),
        notApplicable: applicable ? undefined : `META global=${scopes.join(',')} has no scope Node runs`,
        long: meta.get('timeout')?.[0] === 'long',
        title: meta.get('title')?.[0],
      };
    });
}
