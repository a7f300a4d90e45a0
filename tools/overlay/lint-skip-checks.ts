// Node's crypto-check, inspector-check and eslint-check for tests (tools/eslint-rules, not in the fixtures), on the
// TypeScript AST: a test that requires a module an optional part of Node's build provides must be able
// to skip without it.
//   crypto-check     require('crypto'|'http2'|'tls'|'https') or process.binding('crypto'|'http2'|'tls_wrap')
//                    after `if (!common.hasCrypto) common.skip(…)` (or hasFipsCrypto)
//   inspector-check  require('inspector') and a common.skipIfInspectorDisabled() somewhere
//   eslint-check     require() of the tree's ESLint and a common.skipIfEslintMissing() somewhere
import type { LintFinding } from './lint.ts';
import { calleeIdentifier, calleeParts, lineOf, skipParens, ts } from './ts.ts';

const CRYPTO_REQUIRES = new Set(['crypto', 'http2', 'tls', 'https']);
const CRYPTO_BINDINGS = new Set(['crypto', 'http2', 'tls_wrap']);
const CRYPTO_CHECKS = new Set(['hasCrypto', 'hasFipsCrypto']);
const ESLINT = '../../tools/eslint/node_modules/eslint';

/** The module a `require('x')` or `process.binding('x')` call names: [how, name]. */
function loaded(call: ts.CallExpression): ['require' | 'binding', string] | undefined {
  const arg = call.arguments[0];
  if (!arg || !ts.isStringLiteralLike(arg)) return undefined;
  if (calleeIdentifier(call) === 'require') return ['require', arg.text];
  const [object, name] = calleeParts(call);
  return object === 'process' && name === 'binding' ? ['binding', arg.text] : undefined;
}

/** `x.hasCrypto` (any object, as Node's rule reads it) or a bare `hasCrypto`. */
function isCryptoCheck(node: ts.Expression): boolean {
  const e = skipParens(node);
  if (ts.isIdentifier(e)) return CRYPTO_CHECKS.has(e.text);
  return ts.isPropertyAccessExpression(e) && CRYPTO_CHECKS.has(e.name.text);
}

/** Whether a statement is a call of `skip()` or `x.skip()`. */
function callsSkip(statement: ts.Statement): boolean {
  if (!ts.isExpressionStatement(statement)) return false;
  const call = skipParens(statement.expression);
  return ts.isCallExpression(call) && calleeParts(call)[1] === 'skip';
}

/** `if (!<check>) { …skip()… }`: the check's negation guards a skip. */
function isSkipBlock(node: ts.IfStatement): boolean {
  const test = skipParens(node.expression);
  if (!ts.isPrefixUnaryExpression(test) || test.operator !== ts.SyntaxKind.ExclamationToken) return false;
  const then = node.thenStatement;
  return ts.isBlock(then) ? then.statements.some(callsSkip) : callsSkip(then);
}

/** ESTree's `argument` of an if's test: the operand of a unary, update, await or yield expression. */
function argumentOf(test: ts.Expression): ts.Expression | undefined {
  if (ts.isPrefixUnaryExpression(test) || ts.isPostfixUnaryExpression(test)) return test.operand;
  if (ts.isTypeOfExpression(test) || ts.isVoidExpression(test) || ts.isDeleteExpression(test) ||
      ts.isAwaitExpression(test) || ts.isYieldExpression(test)) return test.expression;
  return undefined;
}

export function skipCheckFindings(sf: ts.SourceFile): LintFinding[] {
  const findings: LintFinding[] = [];
  const report = (rule: string, node: ts.Node, message: string) =>
    findings.push({ rule, line: lineOf(sf, node.getStart(sf)), message });
  const cryptoLoads: ts.Node[] = [];
  const inspectorLoads: ts.Node[] = [];
  const eslintLoads: ts.Node[] = [];
  // Checks not known to guard a skip, by position: a load before all of them is unguarded.
  const unguarded: ts.Node[] = [];
  let guarded = false;
  let inspectorCheck = false;
  let eslintCheck = false;
  const visit = (node: ts.Node): void => {
    ts.forEachChild(node, visit);
    if (ts.isCallExpression(node)) {
      const [how, name] = loaded(node) ?? [];
      if ((how === 'require' && CRYPTO_REQUIRES.has(name!)) || (how === 'binding' && CRYPTO_BINDINGS.has(name!))) cryptoLoads.push(node);
      if (how === 'require' && name === 'inspector') inspectorLoads.push(node);
      if (how === 'require' && name === ESLINT) eslintLoads.push(node);
    }
    if (ts.isPropertyAccessExpression(node)) {
      if (node.name.text === 'skipIfInspectorDisabled') inspectorCheck = true;
      if (node.name.text === 'skipIfEslintMissing') eslintCheck = true;
      if (isCryptoCheck(node)) unguarded.push(node);
    }
    // After its test's members, as ESLint leaves them (':exit').
    if (ts.isIfStatement(node)) {
      const argument = argumentOf(skipParens(node.expression));
      if (argument && isCryptoCheck(argument)) {
        if (isSkipBlock(node)) guarded = true;
        else unguarded.push(node);
      }
    }
  };
  visit(sf);
  const message = 'check common.hasCrypto and skip before requiring a crypto module';
  if (guarded) {
    // A load before every other check of hasCrypto (none: no load is).
    for (const load of unguarded.length > 0 ? cryptoLoads : []) {
      if (unguarded.every((check) => load.getStart(sf) < check.getStart(sf))) report('crypto-check', load, message);
    }
  } else if (cryptoLoads.length > 0) {
    for (const node of unguarded.length > 0 ? unguarded : cryptoLoads) report('crypto-check', node, message);
  }
  if (!inspectorCheck) {
    for (const load of inspectorLoads) report('inspector-check', load, 'call common.skipIfInspectorDisabled()');
  }
  if (!eslintCheck) {
    for (const load of eslintLoads) report('eslint-check', load, 'call common.skipIfEslintMissing()');
  }
  return findings;
}
