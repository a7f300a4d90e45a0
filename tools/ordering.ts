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
  const { oldLib, newLib, layers, declared } = resolveSides(values.old!, values.new!, values.overlay);
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
  for (const { diff, by } of verdict.allowed) {
    console.log(`\nALLOWED ${diff.id} (declared by ${by.map((d) => `${d.layer}: ${d.reason}`).join('; ')})`);
    console.log(renderDiff(diff, oldLib.name, newLib.name, context));
  }
  for (const diff of verdict.undeclared) {
    console.log(`\nDIFFERS ${diff.id} (undeclared)`);
    console.log(renderDiff(diff, oldLib.name, newLib.name, context));
  }
  for (const d of verdict.stale) {
    console.log(`\nwarning: ${d.layer} declares a deviation for ${d.scenario}, but its logs are identical on ${oldLib.name} and ${newLib.name} (a later layer may undo it; otherwise drop the line)`);
  }
  for (const d of verdict.unknown) {
    console.log(`\nUNKNOWN ${d.layer} declares a deviation for '${d.scenario}', which is no scenario of the corpus`);
  }
  const failed = verdict.undeclared.length + verdict.unknown.length;
  const passed = verdict.identical.length + verdict.allowed.length;
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  const layerText = layers.length ? `${layers.length} layer(s)` : 'no layers';
  console.log(`\nordering: ${cmp.ids.length} scenarios, ${oldLib.name} (${a.ms} ms) vs ${newLib.name} (${b.ms} ms), ${layerText}: ` +
    `${verdict.identical.length} identical, ${verdict.allowed.length} declared deviations, ${verdict.undeclared.length} undeclared differences, ` +
    `${verdict.stale.length} stale declarations, ${verdict.unknown.length} unknown declarations (${seconds} s)`);
  const notes = [
    verdict.allowed.length ? `${verdict.allowed.length} declared deviations` : '',
    verdict.stale.length ? `${verdict.stale.length} stale deviation declarations` : '',
  ].filter(Boolean).join('; ');
  reportSummary({ suite: 'ordering', passed, failed, notes });
  if (failed > 0) process.exitCode = 1;
}

main().catch((err: Error) => {
  console.error(`ordering: ${err.message}`);
  reportSummary({ suite: 'ordering', passed: 0, failed: 1, notes: err.message.split('\n')[0] });
  process.exitCode = 1;
});
