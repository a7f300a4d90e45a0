// The primordials the pinned binary really has: the rewriter only produces
// names from this list. Read once per Node version and cached under out/.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { OUT, PINNED_NODE } from '../lib/paths.ts';

const SCRIPT = `
process.emitWarning = () => {};
const { primordials } = require('internal/test/binding');
const names = Reflect.ownKeys(primordials).filter((k) => typeof k === 'string').sort();
process.stdout.write(JSON.stringify({ version: process.version, names }));
`;

let cached: Set<string> | undefined;

export function primordialNames(node = PINNED_NODE): Set<string> {
  if (cached) return cached;
  const version = execFileSync(node, ['--version'], { encoding: 'utf8' }).trim();
  const file = join(OUT, 'overlay', `primordials-${version}.json`);
  let names: string[];
  if (existsSync(file)) names = JSON.parse(readFileSync(file, 'utf8')).names;
  else {
    const out = JSON.parse(execFileSync(node, ['--expose-internals', '-e', SCRIPT], { encoding: 'utf8' }));
    names = out.names;
    mkdirSync(join(OUT, 'overlay'), { recursive: true });
    writeFileSync(file, JSON.stringify(out));
  }
  cached = new Set(names);
  return cached;
}
