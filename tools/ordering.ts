// `make ordering`: the ordering differential suite. Runs every scenario of
// test/ordering/scenarios on two libs (one process per side, both at once),
// diffs the event logs scenario by scenario and judges the differences
// against the deviations the tested layers declare (tools/ordering/deviations.ts).
//
//   node tools/ordering.ts [--old base] [--new patched] [--overlay DIR]
//                          [--filter TEXT] [--corpus DIR] [--context N] [--save DIR]
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseFlags } from './lib/args.ts';
import { reportSummary } from './lib/summary.ts';
import { compareLogs, renderDiff } from './ordering/diff.ts';
import { judgeCorpus } from './ordering/deviations.ts';
import { LEVELS } from './ordering/kinds.ts';
import { renderProjectionDiffs } from './ordering/projections.ts';
import { describeBaseFixes } from './ordering/base-fixes.ts';
import { resolveSides } from './ordering/sides.ts';
import { runSide } from './ordering/side.ts';

const USAGE = 'node tools/ordering.ts [--old base|<dir>] [--new patched|<dir>] [--overlay DIR] [--filter TEXT] [--corpus DIR] [--context N] [--save DIR]';
const { values } = parseFlags({
  old: { type: 'string', default: 'base' },
  new: { type: 'string', default: 'patched' },
  overlay: { type: 'string' },
  filter: { type: 'string' },
  corpus: { type: 'string' },
  context: { type: 'string', default: '3' },
  save: { type: 'string' },
}, USAGE);

async function main(): Promise<void> {
  const { oldLib, newLib, layers, declared, fixes, laterFixes } = resolveSides(values.old!, values.new!, values.overlay);
  if (fixes.length) console.log(describeBaseFixes(fixes));
  if (laterFixes.length) console.log(describeBaseFixes(laterFixes, 'both sides'));
  const started = Date.now();
  const batch = { kind: 'corpus' as const, corpus: values.corpus, filter: values.filter };
  const [a, b] = await Promise.all([runSide(oldLib, batch), runSide(newLib, batch)]);
  if (a.logs.size === 0) throw new Error(`no scenario selected${values.filter ? ` by --filter ${values.filter}` : ''}`);
  if (values.save) {
    mkdirSync(values.save, { recursive: true });
    for (const side of [a, b]) {
      const text = [...side.logs].map(([id, lines]) => `## ${id}\n${lines.join('\n')}\n`).join('\n');
      writeFileSync(join(values.save, `${side.lib.name.replace(/[^\w.-]+/g, '_')}.log`), text);
    }
  }
  const cmp = compareLogs(a.logs, b.logs);
  // Stray events (after their scenario ended) are compared as one more log.
  const strayCmp = compareLogs(new Map([['(stray events)', a.stray]]), new Map([['(stray events)', b.stray]]));
  cmp.differing.push(...strayCmp.differing);
  const verdict = judgeCorpus(cmp, values.filter ? new Map([...declared].filter(([id]) => cmp.ids.includes(id))) : declared);

  const context = Number(values.context);
  const names = [oldLib.name, newLib.name] as const;
  const declaredBy = (by: { layer: string; kinds: string[]; reason: string }[]) =>
    by.map((d) => `${d.layer} [${d.kinds.join(', ')}]: ${d.reason}`).join('; ');
  for (const { diff, by, checked } of verdict.allowed) {
    console.log(`\nALLOWED ${diff.id} as ${checked.found}: its projections are the same (declared by ${declaredBy(by)})`);
    console.log(renderDiff(diff, ...names, context));
  }
  for (const { diff, by, checked } of verdict.beyond) {
    console.log(`\nDIFFERS ${diff.id} beyond its declared kinds (declared ${checked.allowed} by ${declaredBy(by)}); what differs:`);
    console.log(renderProjectionDiffs(checked.violations, ...names));
    console.log(renderDiff(diff, ...names, context));
  }
  for (const { diff, found } of verdict.undeclared) {
    const hint = found === 'beyond' ? 'its projections differ too' : `a declaration of kind ${found} would cover it`;
    console.log(`\nDIFFERS ${diff.id} (undeclared; ${hint})`);
    console.log(renderDiff(diff, ...names, context));
  }
  for (const d of verdict.stale) {
    console.log(`\nwarning: ${d.layer} declares a deviation for ${d.scenario}, but its logs are identical on ${oldLib.name} and ${newLib.name} (a later layer may undo it; otherwise drop the line)`);
  }
  for (const d of verdict.unknown) {
    console.log(`\nUNKNOWN ${d.layer} declares a deviation for '${d.scenario}', which is no scenario of the corpus`);
  }
  const failed = verdict.undeclared.length + verdict.beyond.length + verdict.unknown.length;
  const passed = verdict.identical.length + verdict.allowed.length;
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  const layerText = layers.length ? `${layers.length} layer(s)` : 'no layers';
  const declaredCount = verdict.allowed.length + verdict.beyond.length;
  console.log(`\nordering: ${cmp.ids.length} scenarios, ${oldLib.name} (${a.ms} ms) vs ${newLib.name} (${b.ms} ms), ${layerText}: ` +
    `${verdict.identical.length} identical, ${declaredCount} declared deviations (${checkedText(verdict.allowed.map((x) => x.checked.found))}, ` +
    `${verdict.beyond.length} beyond their declared kinds), ${verdict.undeclared.length} undeclared differences, ` +
    `${verdict.stale.length} stale declarations, ${verdict.unknown.length} unknown declarations (${seconds} s)`);
  const notes = [
    verdict.allowed.length ? `${verdict.allowed.length} declared deviations, checked on their projections` : '',
    verdict.stale.length ? `${verdict.stale.length} stale deviation declarations` : '',
  ].filter(Boolean).join('; ');
  reportSummary({ suite: 'ordering', passed, failed, notes });
  if (failed > 0) process.exitCode = 1;
}

/** `7 checked on their projections: 3 turns, 4 interleaving`. */
function checkedText(found: string[]): string {
  const parts = LEVELS.map((l) => [l, found.filter((f) => f === l).length] as const).filter(([, n]) => n > 0).map(([l, n]) => `${n} ${l}`);
  return `${found.length} checked on their projections${parts.length ? `: ${parts.join(', ')}` : ''}`;
}

main().catch((err: Error) => {
  console.error(`ordering: ${err.message}`);
  reportSummary({ suite: 'ordering', passed: 0, failed: 1, notes: err.message.split('\n')[0] });
  process.exitCode = 1;
});
