// Node's lint for the tests a layer ships into Node's tree
// (<layer>/node/test/parallel/*.js). Node's CI lints test/ with rules of its
// own that lib code does not have. Node's own rules (tools/eslint-rules) are
// stripped from the fixtures, so, as tools/overlay/lint.ts does for lib code,
// this re-implements on the TypeScript AST the ones a webstreams test meets:
//   required-modules           it requires ../common
//   require-common-first       before any other module
//   prefer-assert-methods      assert(a === b) → assert.strictEqual(a, b), and the like
//   prefer-common-mustnotcall  common.mustCall(fn, 0) → common.mustNotCall()
//   async-iife-no-unused-result  an async IIFE's promise is used (.then(common.mustCall()))
//   no-restricted-syntax       test/'s selectors: literals where strictEqual belongs, the actual/expected
//                              order, assert.throws/rejects with one argument, doesNotThrow/doesNotReject,
//                              an unawaited assert.rejects, an empty function in mustCall, the global isNaN
// and, run by ESLint itself, the stock rules of Node's root and test/ configs (tools/overlay/eslint.ts:
// a test must parse, so V8's natives syntax is compiled from a string; 'use strict', multiline-comment-style,
// prefer-const, no-unused-vars, test/parallel's comma-dangle).
import { basename } from 'node:path';
import { eslintFindings } from './eslint.ts';
import { type LintFinding, withoutDisabled } from './lint.ts';
import { lineOf, parseSource, ts } from './ts.ts';

const COMMON = /common(\/index\.(m)?js)?$/;
const ASSERT_METHODS: Record<string, string> = { '===': 'strictEqual', '!==': 'notStrictEqual', '==': 'equal', '!=': 'notEqual' };
const ORDERED = new Set(['strictEqual', 'notStrictEqual', 'deepStrictEqual', 'notDeepStrictEqual']);
const MUST_CALLS = new Set(['mustCall', 'mustCallAtLeast', 'mustNotCall']);

/** ESTree's Literal: strings, numbers, booleans, null, regular expressions, bigints. */
function isLiteral(node: ts.Node | undefined): boolean {
  if (!node) return false;
  const k = node.kind;
  return k === ts.SyntaxKind.StringLiteral || k === ts.SyntaxKind.NumericLiteral || k === ts.SyntaxKind.BigIntLiteral ||
    k === ts.SyntaxKind.RegularExpressionLiteral || k === ts.SyntaxKind.TrueKeyword || k === ts.SyntaxKind.FalseKeyword ||
    k === ts.SyntaxKind.NullKeyword;
}

function isPlainLiteral(node: ts.Node | undefined): boolean {
  return isLiteral(node) && node!.kind !== ts.SyntaxKind.RegularExpressionLiteral;
}

/** ESTree's UnaryExpression (-x, !x, typeof x, void x, delete x), not ++/--. */
function isUnary(node: ts.Node): boolean {
  if (ts.isPrefixUnaryExpression(node)) {
    return node.operator !== ts.SyntaxKind.PlusPlusToken && node.operator !== ts.SyntaxKind.MinusMinusToken;
  }
  return ts.isTypeOfExpression(node) || ts.isVoidExpression(node) || ts.isDeleteExpression(node);
}

/** `name(…)` or `x.name(…)`: the called name. */
function calledName(call: ts.CallExpression): string | undefined {
  const callee = call.expression;
  if (ts.isIdentifier(callee)) return callee.text;
  if (ts.isPropertyAccessExpression(callee)) return callee.name.text;
  return undefined;
}

function skipParens(node: ts.Expression): ts.Expression {
  return ts.isParenthesizedExpression(node) ? skipParens(node.expression) : node;
}

/** Lints one test file's text; `name` is its file name (a test of test/parallel/ to ESLint). */
export function lintNodeTest(name: string, text: string): LintFinding[] {
  const sf = parseSource(name, text, 'js');
  const findings: LintFinding[] = [];
  const report = (rule: string, pos: number, message: string) => findings.push({ rule, line: lineOf(sf, pos), message });

  const requires: { path: string; pos: number }[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isCallExpression(node)) {
      const name = calledName(node);
      const args = node.arguments;
      if (ts.isIdentifier(node.expression) && name === 'require' && args[0] && ts.isStringLiteral(args[0])) {
        requires.push({ path: args[0].text, pos: node.getStart(sf) });
      }
      if (ts.isIdentifier(node.expression) && name === 'assert' && ts.isExpressionStatement(node.parent) &&
          args[0] && ts.isBinaryExpression(args[0]) && ASSERT_METHODS[args[0].operatorToken.getText(sf)]) {
        report('prefer-assert-methods', node.getStart(sf), `use assert.${ASSERT_METHODS[args[0].operatorToken.getText(sf)]}()`);
      }
      const zero = (a: ts.Node | undefined) => a !== undefined && ts.isNumericLiteral(a) && a.text === '0';
      if (name === 'mustCall' && ((args.length === 2 && zero(args[1])) || (args.length === 1 && zero(args[0])))) {
        report('prefer-common-mustnotcall', node.getStart(sf), 'use common.mustNotCall()');
      }
      if ((name === 'deepStrictEqual' || name === 'notDeepStrictEqual') &&
          (isPlainLiteral(args[1]) || (args[1] && ts.isIdentifier(args[1]) && args[1].text === 'undefined'))) {
        report('no-restricted-syntax', node.getStart(sf), `use ${name === 'deepStrictEqual' ? 'strictEqual' : 'notStrictEqual'} for literals or undefined`);
      }
      if ((name === 'deepStrictEqual' || (name === 'strictEqual' && ts.isPropertyAccessExpression(node.expression))) && isLiteral(args[2])) {
        report('no-restricted-syntax', node.getStart(sf), `do not use a literal for the third argument of assert.${name}()`);
      }
      if (name === 'doesNotThrow' || name === 'doesNotReject') {
        report('no-restricted-syntax', node.getStart(sf), `do not use assert.${name}(): write the code without it and add a comment`);
      }
      if ((name === 'throws' || name === 'rejects') && args.length < 2) {
        report('no-restricted-syntax', node.getStart(sf), `assert.${name}() takes at least two arguments`);
      }
      if (name === 'throws' && isPlainLiteral(args[1])) {
        report('no-restricted-syntax', node.getStart(sf), 'use an object as the second argument of assert.throws()');
      }
      if (name && ORDERED.has(name) && isLiteral(args[0]) && args[1] && !isLiteral(args[1]) &&
          !ts.isObjectLiteralExpression(args[1]) && !ts.isArrayLiteralExpression(args[1]) && !isUnary(args[1])) {
        report('no-restricted-syntax', node.getStart(sf), 'the first argument is the actual value, not the expected one');
      }
      if (name === 'isNaN' && ts.isIdentifier(node.expression)) {
        report('no-restricted-syntax', node.getStart(sf), 'use Number.isNaN()');
      }
      const fn = args[0];
      if (name && MUST_CALLS.has(name) && fn && (ts.isFunctionExpression(fn) || ts.isArrowFunction(fn)) &&
          ts.isBlock(fn.body) && fn.body.statements.length === 0) {
        report('no-restricted-syntax', node.getStart(sf), `do not give ${name}() an empty function; omit it`);
      }
      const onAssert = ts.isIdentifier(node.expression) ||
        (ts.isPropertyAccessExpression(node.expression) && ts.isIdentifier(node.expression.expression) && node.expression.expression.text === 'assert');
      if (name === 'rejects' && onAssert && ts.isExpressionStatement(node.parent)) {
        report('no-restricted-syntax', node.getStart(sf), 'await assert.rejects(), or it cannot detect a promise that never settles');
      }
      const callee = skipParens(node.expression);
      if (ts.isExpressionStatement(node.parent) && (ts.isArrowFunction(callee) || ts.isFunctionExpression(callee)) &&
          callee.modifiers?.some((m) => m.kind === ts.SyntaxKind.AsyncKeyword)) {
        report('async-iife-no-unused-result', node.getStart(sf), 'use the async IIFE\'s promise: .then(common.mustCall())');
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);

  const common = requires.findIndex((r) => COMMON.test(r.path));
  if (common < 0) report('required-modules', 0, 'a test requires ../common');
  else if (common > 0) report('require-common-first', requires[0].pos, `require ../common before ${requires[0].path}`);

  findings.push(...eslintFindings(`test/parallel/${basename(name)}`, text, 'test'));
  return withoutDisabled(findings, text).sort((a, b) => a.line - b.line);
}
