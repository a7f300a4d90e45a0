// `make overlay-typecheck`: `tsc --noEmit` (the fast TypeScript 7 checker)
// over every layer of lib-overlay/ and of each test overlay fixture, each
// layer in its own view (the declarations of the code beneath it and its
// own), with the same tsconfig the compiler uses (tools/overlay/program.ts).
//
//   node tools/overlay-typecheck.ts [--overlay DIR]...
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { basename, join, relative, resolve } from 'node:path';
import { parseFlags } from './lib/args.ts';
import { resolveBase, seriesBase } from './lib/base-spec.ts';
import { listLayers } from './lib/layers.ts';
import { LIB_OVERLAY, OUT, ROOT } from './lib/paths.ts';
import { reportSummary } from './lib/summary.ts';
import { applyLayers } from './overlay/apply.ts';
import { writeTsconfig } from './overlay/program.ts';
import { layerModuleFiles } from './overlay/source.ts';
import { viewAt } from './overlay/views.ts';

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
  const layers = listLayers(root);
  const base = resolveBase(seriesBase(root));
  // The compiler writes each layer's view while it builds the series; tsc then checks each layer in it.
  const views = join(OUT, 'overlay', 'views', basename(root));
  applyLayers(base.modules, layers, { root, typings: base.typings, viewsDir: views });
  let bad = 0;
  let files = 0;
  for (const layer of layers) {
    const paths = layerModuleFiles(layer).map((f) => f.path);
    if (paths.length === 0) continue;
    files += paths.length;
    const config = join(OUT, 'overlay', `tsconfig-${basename(root)}-${layer.index}.json`);
    writeTsconfig(config, paths, { view: viewAt(join(views, String(layer.index))), typings: base.typings });
    const r = spawnSync(join(ROOT, 'node_modules', '.bin', 'tsc'), ['-p', config], { encoding: 'utf8' });
    if (r.status !== 0) {
      bad++;
      console.log(`${name}: ${layer.name}: type errors\n${r.stdout}${r.stderr}`);
    }
  }
  if (bad) failed++;
  else passed++;
  console.log(`${name}: ${files} layer file(s) in ${layers.length} layer view(s)${bad ? `, ${bad} with type errors` : ' type-check'}`);
}
console.log(`${passed} passed, ${failed} failed`);
reportSummary({ suite: 'overlay-typecheck', passed, failed });
process.exitCode = failed ? 1 : 0;
