// Node's lint for the benchmark files a patch ships (benchmark/webstreams/*.js): the root config's rules
// and Node's own rules for every file, with benchmark/'s partial config (Node's globals,
// prefer-arrow-callback), as `make lint-js` checks them in the tree.
import { eslintFindings } from './eslint.ts';
import { rootRuleFindings } from './lint-root.ts';
import { type LintFinding, withoutDisabled } from './lint.ts';
import { parseSource } from './ts.ts';

/** Lints one benchmark file's text; `treePath` is its path in Node's tree (benchmark/…). */
export function lintNodeBenchmark(treePath: string, text: string): LintFinding[] {
  const sf = parseSource(treePath, text, 'js');
  const findings = [...rootRuleFindings(sf, { duplicateRequires: true }), ...eslintFindings(treePath, text, 'benchmark')];
  return withoutDisabled(findings, text).sort((a, b) => a.line - b.line);
}
