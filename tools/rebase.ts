// `make rebase`: carries the series onto its base as it is now, or onto
// another one (README "Rebasing the series"). Clean merges go into the
// layers' TypeScript and locks; the first conflict stops with markers in the
// layer file and a report naming layer, file and declaration (exit 1).
//
//   node tools/rebase.ts [--base SPEC] [--into DIR] [--overlay DIR] [--keep-going]
//     (env: BASE, INTO, OVERLAY_DIR, KEEP_GOING=1)
// SPEC: pinned (default, or the overlay's series.json), node@x.y.z, a Node
// checkout, a lib directory. --into copies the overlay to DIR first (layers,
// locks, types/) and rebases the copy, recording SPEC in DIR/series.json.
// --keep-going reports every layer (only with --into: a conflicting layer
// keeps its own copy there, and its lock still refuses a build).
import { cpSync, existsSync, readdirSync, rmSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { parseFlags } from './lib/args.ts';
import { resolveBase, seriesBase, SERIES_FILE, writeSeriesBase } from './lib/base-spec.ts';
import { listLayers } from './lib/layers.ts';
import { LIB_OVERLAY, ROOT } from './lib/paths.ts';
import { formatReport, rebaseLayers } from './overlay/rebase.ts';

const USAGE = 'node tools/rebase.ts [--base SPEC] [--into DIR] [--overlay DIR] [--keep-going]   (env: BASE, INTO, OVERLAY_DIR, KEEP_GOING=1)';
const { values } = parseFlags({
  base: { type: 'string' },
  into: { type: 'string' },
  overlay: { type: 'string' },
  'keep-going': { type: 'boolean', default: false },
}, USAGE);

/** Copies an overlay root (its layers, series.json and types/) to `into`, replacing an earlier copy. */
function copyOverlay(from: string, into: string): void {
  if (existsSync(into)) {
    const entries = readdirSync(into);
    const ours = entries.every((e) => e === SERIES_FILE || e === 'types' || /^\d+-/.test(e));
    if (entries.length && !ours) throw new Error(`--into ${into} exists and does not look like an overlay copy; give a new folder`);
    rmSync(into, { recursive: true, force: true });
  }
  cpSync(from, into, {
    recursive: true,
    filter: (src) => src === from || relative(from, src).split('/')[0] === 'types' || relative(from, src).split('/')[0] === SERIES_FILE ||
      /^\d+-/.test(relative(from, src).split('/')[0]),
  });
}

function main(): number {
  const source = resolve(values.overlay ?? (process.env.OVERLAY_DIR || LIB_OVERLAY));
  const intoArg = values.into ?? process.env.INTO;
  const into = intoArg ? resolve(intoArg) : undefined;
  const keepGoing = values['keep-going'] || process.env.KEEP_GOING === '1';
  if (keepGoing && (!into || into === source)) throw new Error('--keep-going leaves conflicting layers unmerged: use it with --into <a scratch copy>');
  const spec = values.base ?? process.env.BASE ?? seriesBase(source);
  const base = resolveBase(spec);
  const root = into ?? source;
  if (into && into !== source) copyOverlay(source, into);
  if (into && base.spec !== 'pinned') writeSeriesBase(root, base.spec);
  else if (into) rmSync(join(root, SERIES_FILE), { force: true });
  const label = `${base.nodeVersion} (${base.origin})`;
  console.log(`rebase: ${relative(ROOT, root) || root} onto ${label}`);
  const report = rebaseLayers(base.modules, listLayers(root), {
    root, typings: base.typings, baseLabel: `the base (${base.nodeVersion})`,
    baseVersion: base.nodeVersion, groundLabel: base.nodeVersion, keepGoing,
  });
  console.log(formatReport(report, label));
  if (report.ok) {
    console.log(`rebase: every layer stands on ${base.nodeVersion}; \`make build\` (OVERLAY_DIR=${relative(ROOT, root) || root} for a copy), then test`);
    return 0;
  }
  const stop = report.layers.find((l) => l.status === 'conflict' || l.status === 'failed');
  if (!keepGoing && stop?.status === 'conflict') {
    console.log(`rebase: stopped at ${stop.layer.name}. Resolve the conflict markers in its files, then run \`make rebase\` again ` +
      `(its lock already records ${base.nodeVersion}, so it goes on from there).`);
  }
  const empty = report.layers.filter((l) => l.empty).map((l) => l.layer.name);
  if (empty.length) console.log(`rebase: ${empty.join(', ')} change${empty.length === 1 ? 's' : ''} nothing on ${base.nodeVersion}: drop ${empty.length === 1 ? 'it' : 'them'} from the series`);
  return 1;
}

try {
  process.exitCode = main();
} catch (err) {
  console.error(`rebase: ${process.env.DEBUG ? (err as Error).stack : (err as Error).message}`);
  process.exitCode = 2;
}
