// `make overlay-typecheck`: `tsc --noEmit` (the fast TypeScript 7 checker)
// over every layer of lib-overlay/ and of each test overlay fixture, with
// the same tsconfig the compiler uses (tools/overlay/program.ts).
//
//   node tools/overlay-typecheck.ts [--overlay DIR]...
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { basename, join, relative, resolve } from 'node:path';
import { parseFlags } from './lib/args.ts';
import { listLayers } from './lib/layers.ts';
import { LIB_OVERLAY, OUT, ROOT } from './lib/paths.ts';
import { reportSummary } from './lib/summary.ts';
import { writeTsconfig } from './overlay/program.ts';
import { layerModuleFiles } from './overlay/source.ts';

const { values } = parseFlags({ overlay: { type: 'string', multiple: true } }, 'node tools/overlay-typecheck.ts [--overlay DIR]...');
const FIXTURES = join(ROOT, 'test', 'overlay-fixtures');

function roots(): string[] {
  if (values.overlay) return values.overlay.map((d) => resolve(d));
  const fixtures = existsSync(FIXTURES)
    ? readdirSync(FIXTURES, { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => join(FIXTURES, e.name))
    : [];
  return [LIB_OVERLAY, ...fixtures];
}

let passed = 0;
let failed = 0;
for (const root of roots()) {
  const name = relative(ROOT, root) || root;
  const files = listLayers(root).flatMap(layerModuleFiles).map((f) => f.path);
  if (files.length === 0) {
    console.log(`${name}: no layer files`);
    continue;
  }
  const config = join(OUT, 'overlay', `tsconfig-${basename(root)}.json`);
  writeTsconfig(config, files);
  const r = spawnSync(join(ROOT, 'node_modules', '.bin', 'tsc'), ['-p', config], { encoding: 'utf8' });
  if (r.status === 0) {
    passed++;
    console.log(`${name}: ${files.length} layer file(s) type-check`);
  } else {
    failed++;
    console.log(`${name}: type errors\n${r.stdout}${r.stderr}`);
  }
}
console.log(`${passed} passed, ${failed} failed`);
reportSummary({ suite: 'overlay-typecheck', passed, failed });
process.exitCode = failed ? 1 : 0;
