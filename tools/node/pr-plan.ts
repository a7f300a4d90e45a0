// What `make pr` opens: one PR per layer (lib-overlay/<NN>-<slug>/ ↔
// patches/NNNN-<slug>.patch), its branch (the base plus patches 1..k), its
// title and body: PATCH.md, this layer's benchmark table, the test results
// and Node's PR checklist. Pure planning and text; no git, no network.
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Layer } from '../lib/layers.ts';
import { commitMessage, readPatchMd, type PatchMd } from '../lib/patch-md.ts';
import { readSummaries, type SuiteSummary } from '../lib/summary.ts';
import { filesTouchedBy, type Patch } from './series.ts';

export interface PrLayer {
  layer: Layer;
  patch: Patch;
  md: PatchMd;
  /** The branch holding the base plus patches 1..index. */
  branch: string;
  /** tools/compare.ts --name of this layer's own comparison (layers 1..k-1 vs 1..k). */
  compareName: string;
  /** Problems that make submitting this PR wrong (dry runs report them). */
  problems: string[];
}

export class PlanError extends Error {}

/** Pairs every layer with its patch by number and slug; the two must agree exactly. */
export function pairLayers(layers: Layer[], patches: Patch[], branchPrefix: string): PrLayer[] {
  if (layers.length === 0) throw new PlanError('there are no layers in lib-overlay/: nothing to open PRs for');
  if (layers.length !== patches.length) {
    throw new PlanError(`${layers.length} layer(s) but ${patches.length} patch(es): patches/ is out of date with lib-overlay/; run \`make patches\``);
  }
  const pairs = layers.map((layer, i) => {
    const patch = patches[i];
    const slug = layer.name.replace(/^\d+-/, '');
    if (patch.slug !== slug) {
      throw new PlanError(`layer ${layer.name} has patch ${String(patch.index).padStart(4, '0')}-${patch.slug}.patch: patches/ is out of date with lib-overlay/; run \`make patches\``);
    }
    return { layer, patch, md: readPatchMd(layer.dir), branch: `${branchPrefix}${layer.name}`, compareName: layer.name, problems: [] as string[] };
  });
  return pairs;
}

/** The PATCH.md body without its trailer block (Signed-off-by and friends belong to the commit). */
export function withoutTrailers(body: string): string {
  const paragraphs = body.trim().split(/\n{2,}/);
  const last = paragraphs.at(-1) ?? '';
  if (last && last.split('\n').every((l) => /^[A-Z][\w-]*: \S/.test(l))) paragraphs.pop();
  return paragraphs.join('\n\n').trim();
}

export interface Evidence {
  /** out/compare: one folder per tools/compare.ts --name. */
  compareDir: string;
  /** The summaries `make test` wrote (out/test-results/summaries). */
  summariesDir: string;
  /** Prefix of the suites' summary names (`series-v24-` for the v24.x series' wpt, ordering…). */
  suitePrefix?: string;
}

/** The layer's whole table (its benchmarks, old and new side by side), or a plain note that it is missing. */
export function benchmarkSection(p: PrLayer, index: number, evidence: Evidence): string {
  const dir = join(evidence.compareDir, p.compareName);
  const table = join(dir, 'table.txt');
  const old = index === 1 ? 'the base' : `the base with patches 1..${index - 1}`;
  if (!existsSync(table)) return `_Missing: no benchmark results for this patch (${old} against patches 1..${index})._`;
  const when = statSync(table).mtime.toISOString().replace(/\.\d+Z$/, 'Z');
  return `${old} (old) against the base with patches 1..${index} (new), ${when}, every configuration of ` +
    `the benchmarks the commit message cites:\n\n\`\`\`console\n${readFileSync(table, 'utf8').trimEnd()}\n\`\`\``;
}

const SUITES = [
  { prefix: 'wpt', title: 'WPT streams, encoding/streams, compression and Blob#stream()' },
  { prefix: 'ordering', title: 'ordering (differential, base vs patched)' },
  { prefix: 'node-tests', title: "Node's tests that use web streams" },
];

const ALONE = [
  { kind: 'ordering', title: 'ordering, this patch against the series before it' },
  { kind: 'fuzz', title: 'fuzz (500 random programs), the same way' },
  { kind: 'fuzz-coding', title: 'fuzz with TextEncoderStream and TextDecoderStream (500 random programs), the same way' },
  { kind: 'wpt', title: 'WPT streams, encoding/streams, compression and Blob#stream() on the series up to this patch' },
  { kind: 'node-tests', title: "Node's tests that use web streams on the series up to this patch" },
];

/** This patch's own results (the `layers` suite's `layers-<layer>-<kind>` summaries), or nothing if there are none. */
export function aloneSection(evidence: Evidence, layer: string, last: boolean): string {
  const summaries = readSummaries(evidence.summariesDir).filter((s: SuiteSummary) => s.suite.startsWith(`layers-${layer}-`));
  if (summaries.length === 0) return '';
  const rows = ALONE.map(({ kind, title }) => {
    const s = summaries.find((x: SuiteSummary) => x.suite === `layers-${layer}-${kind}`);
    if (s) return `| ${title} | ${s.passed} | ${s.failed} | ${(s.notes ?? '').replace(/\|/g, '\\|')} |`;
    // The last patch's state is the whole series: the rows above.
    return last && (kind === 'wpt' || kind === 'node-tests') ? `| ${title} | (the whole series, above) | | |` : `| ${title} | _missing: no result_ | | |`;
  });
  return `\n\nThis patch on its own (the series up to it, judged against the series before it):\n\n| suite | passed | failed | notes |\n|---|---|---|---|\n${rows.join('\n')}`;
}

export function testsSection(evidence: Evidence, layers: number): string {
  const summaries = readSummaries(evidence.summariesDir);
  const rows = SUITES.map(({ prefix: name, title }) => {
    const prefix = `${evidence.suitePrefix ?? ''}${name}`;
    const mine = summaries.filter((s: SuiteSummary) => s.suite === prefix || s.suite.startsWith(`${prefix}-`));
    if (mine.length === 0) return `| ${title} | _missing: no result_ | | |`;
    const passed = mine.reduce((n, s) => n + s.passed, 0);
    const failed = mine.reduce((n, s) => n + s.failed, 0);
    return `| ${title} | ${passed} | ${failed} | ${mine.map((s) => s.notes).filter(Boolean).join('; ').replace(/\|/g, '\\|')} |`;
  });
  const when = existsSync(evidence.summariesDir) ? ` (${statSync(evidence.summariesDir).mtime.toISOString().replace(/\.\d+Z$/, 'Z')})` : '';
  return `| suite | passed | failed | notes |\n|---|---|---|---|\n${rows.join('\n')}\n\n` +
    `From the project's last test run${when}, with the whole series (${layers} patch${layers === 1 ? '' : 'es'}) in the release binary's lib, not this patch alone. ` +
    'WPT runs each file on the base and on the patched lib and compares them; the ordering suite logs every callback and promise settlement of each scenario on both and compares the logs.';
}

/** Node's PR checklist, ticked only where the patch itself shows it. */
export function checklist(p: PrLayer): string {
  const touched = filesTouchedBy(p.patch.file);
  const box = (done: boolean) => (done ? '[x]' : '[ ]');
  return [
    '- [ ] `make -j4 test` (UNIX), or `vcbuild test` (Windows) passes',
    `- ${box(touched.some((f) => f.startsWith('test/') || f.startsWith('benchmark/')))} tests and/or benchmarks are included`,
    `- ${box(touched.some((f) => f.startsWith('doc/')))} documentation is changed or added`,
    `- ${box(/^stream: \S/.test(p.md.subject) && p.md.subject.length <= 72)} commit message follows [commit guidelines](https://github.com/nodejs/node/blob/HEAD/doc/contributing/pull-requests.md#commit-message-guidelines)`,
    '- [ ] an AI coding agent assisted (see the Assisted-by trailer): I have read, understood and tested every line, as [the AI guidelines](https://github.com/nodejs/node/blob/HEAD/doc/contributing/ai-guidelines.md) ask',
  ].join('\n');
}

export interface SeriesLink {
  /** PR number once it exists. */
  number?: number;
}

export function seriesSection(pairs: PrLayer[], index: number, links: SeriesLink[], firstBase: string, independent = false): string {
  const lines = pairs.map((p, i) => {
    const ref = links[i]?.number ? `#${links[i].number}` : `\`${p.branch}\``;
    return `${i + 1}. ${ref} ${p.md.subject}${i + 1 === index ? ' ← this PR' : ''}`;
  });
  if (independent)
    return `One of ${pairs.length} independent PRs, each based on \`${firstBase}\` alone: they can be reviewed and land in any order.\n\n${lines.join('\n')}`;
  const stacked = index === 1 ? `It is based on \`${firstBase}\`.` : `It is stacked on ${links[index - 2]?.number ? `#${links[index - 2].number}` : `\`${pairs[index - 2].branch}\``}: review that first; this PR's own change is its last commit.`;
  return `Part ${index} of ${pairs.length} of a series. ${stacked}\n\n${lines.join('\n')}`;
}

export function renderBody(pairs: PrLayer[], index: number, evidence: Evidence, links: SeriesLink[], firstBase: string, independent = false): string {
  const p = pairs[index - 1];
  const message = commitMessage(p.layer.dir, p.md);
  const body = withoutTrailers(message.slice(message.indexOf('\n\n') + 2));
  return [
    body || '_No description in PATCH.md._',
    seriesSection(pairs, index, links, firstBase, independent),
    `### Benchmarks\n\n${benchmarkSection(p, index, evidence)}`,
    `### Tests\n\n${testsSection(evidence, pairs.length)}${aloneSection(evidence, p.layer.name, index === pairs.length)}`,
    `### Checklist\n\n${checklist(p)}`,
    ...(p.problems.length ? [`### Problems\n\n${p.problems.map((x) => `- ${x}`).join('\n')}`] : []),
  ].join('\n\n') + '\n';
}
