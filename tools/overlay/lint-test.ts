// Node's lint for the tests a layer ships into Node's tree
// (<layer>/node/test/parallel/*.js). Node's CI lints test/ with rules of its
// own that lib code does not have. Node's own rules (tools/eslint-rules) are
// stripped from the fixtures, so, as tools/overlay/lint.ts does for lib code,
// this re-implements on the TypeScript AST the ones a webstreams test meets:
//   required-modules           it requires ../common
//   require-common-first       before any other module
//   prefer-assert-methods      assert(a === b) → assert.strictEqual(a, b), and the like
//   prefer-common-mustnotcall  common.mustCall(fn, 0) → common.mustNotCall()
//   prefer-common-mustsucceed  common.mustCall((err) => { assert.ifError(err); … }) → common.mustSucceed()
//   prefer-assert-iferror      if (err) throw err; → assert.ifError(err)
//   async-iife-no-unused-result  an async IIFE's promise is used (.then(common.mustCall()))
//   crypto-check, inspector-check, eslint-check  a test of an optional part of the build can skip without it
//                              (tools/overlay/lint-skip-checks.ts)
//   must-call-assert           an assertion in a callback runs inside common.mustCall()/mustSucceed() (or a
//                              .then(), a test(), a Promise executor, forEach…), node:assert is bound to
//                              `assert`, and a statement's .then() chain ends in .then(common.mustCall());
//                              for the shipped tests a mustCall() in a callback counts as an assertion too
// and Node's own rules for every file but no-duplicate-requires (tools/overlay/lint-root.ts), and, run by
// ESLint itself, the stock rules of Node's root and test/ configs, test/'s no-restricted-syntax selectors
// among them (tools/overlay/eslint.ts:
// a test must parse, so V8's natives syntax is compiled from a string; 'use strict', multiline-comment-style,
// prefer-const, no-unused-vars, test/parallel's comma-dangle).
import { basename } from 'node:path';
import { eslintFindings } from './eslint.ts';
import { rootRuleFindings } from './lint-root.ts';
import { skipCheckFindings } from './lint-skip-checks.ts';
import { type LintFinding, withoutDisabled } from './lint.ts';
import { calleeParts, estreeParent, lineOf, parseSource, sameTokens, skipParens, ts } from './ts.ts';

const COMMON = /common(\/index\.(m)?js)?$/;
const ASSERT_METHODS: Record<string, string> = { '===': 'strictEqual', '!==': 'notStrictEqual', '==': 'equal', '!=': 'notEqual' };

/** `assert.ifError`, as a callee or a value. */
function isAssertIfError(node: ts.Expression): boolean {
  const e = skipParens(node);
  return ts.isPropertyAccessExpression(e) && ts.isIdentifier(e.expression) && e.expression.text === 'assert' &&
    e.name.text === 'ifError';
}

/** Whether a callback's body starts with assert.ifError(<its first parameter>) (Node's prefer-common-mustsucceed). */
function startsWithIfError(fn: ts.ArrowFunction | ts.FunctionExpression): boolean {
  const param = fn.parameters[0]?.name;
  if (!param || !ts.isIdentifier(param)) return false;
  let body: ts.Node = fn.body;
  while (ts.isBlock(body) && body.statements.length > 0) body = body.statements[0];
  const expr = ts.isReturnStatement(body) ? body.expression : ts.isExpressionStatement(body) ? body.expression : body;
  if (!expr || !ts.isExpression(expr)) return false;
  const call = skipParens(expr);
  if (!ts.isCallExpression(call) || !isAssertIfError(call.expression)) return false;
  const arg = call.arguments[0];
  return arg !== undefined && ts.isIdentifier(arg) && arg.text === param.text;
}

/** What ESTree calls a FunctionExpression or an ArrowFunctionExpression (methods and accessors among them). */
function isFunctionExpression(node: ts.Node): node is ts.FunctionLikeDeclaration {
  return ts.isArrowFunction(node) || ts.isFunctionExpression(node) || ts.isMethodDeclaration(node) ||
    ts.isGetAccessorDeclaration(node) || ts.isSetAccessorDeclaration(node) || ts.isConstructorDeclaration(node);
}

/** A callback that runs as part of its caller, so its assertions need no mustCall of their own. */
function runsInline(fn: ts.Node, parent: ts.Node): boolean {
  if (ts.isCallExpression(parent)) {
    if (skipParens(parent.expression) === fn) return true;
    const callee = skipParens(parent.expression);
    if (!ts.isPropertyAccessExpression(callee)) return false;
    const object = skipParens(callee.expression);
    const keysOrEntries = ts.isCallExpression(object) && calleeParts(object)[0] === 'Object' &&
      ['keys', 'entries'].includes(calleeParts(object)[1] ?? '');
    if (!ts.isArrayLiteralExpression(object) && !ts.isIdentifier(object) && !keysOrEntries) return false;
    if (callee.name.text === 'forEach') return true;
    const outer = estreeParent(parent);
    return callee.name.text === 'map' && ts.isCallExpression(outer) && outer.arguments.length === 1 &&
      calleeParts(outer)[0] === 'Promise' && calleeParts(outer)[1] === 'all';
  }
  if (ts.isNewExpression(parent)) return ts.isIdentifier(parent.expression) && parent.expression.text === 'Promise';
  // A property's function (a method is its own property here) checked by a child-process helper.
  const property = ts.isPropertyAssignment(parent) ? parent : ts.isObjectLiteralExpression(parent) ? fn : undefined;
  const ancestor = property && ts.isObjectLiteralExpression(property.parent) ? estreeParent(property.parent) : undefined;
  return ancestor !== undefined && ts.isCallExpression(ancestor) && ts.isIdentifier(ancestor.expression) &&
    /^spawnSyncAnd(Exit(WithoutError)?|Assert)$/.test(ancestor.expression.text);
}

const MUST_CALL_WRAPPERS = new Set(['mustCall', 'mustCallAtLeast', 'mustSucceed']);
const ASSERT_MODULE = /^(node:)?assert(.strict)?$/;

/**
 * Node's must-call-assert, on the TypeScript AST. With `nested`, a mustCall() or mustCallAtLeast() inside
 * a callback counts as an assertion too, as Node's newer rule has it.
 */
function mustCallAssert(sf: ts.SourceFile, nested: boolean, report: (pos: number, message: string) => void): void {
  const inFunction = (node: ts.Node): boolean => {
    for (let p = node.parent; p; p = p.parent) if (ts.isFunctionLike(p)) return true;
    return false;
  };
  const checkAssertion = (call: ts.CallExpression): void => {
    let fn: ts.Node | undefined = call;
    for (;;) {
      fn = fn.parent;
      if (!fn) return;
      if (!isFunctionExpression(fn)) continue;
      if (!runsInline(fn, estreeParent(fn))) break;
    }
    const parent = estreeParent(fn);
    if (ts.isBinaryExpression(parent) && parent.operatorToken.kind === ts.SyntaxKind.PlusToken) return;
    if (ts.isCallExpression(parent)) {
      const [object, name] = calleeParts(parent);
      if (object === undefined && name && (name === 'test' || name === 'it' || MUST_CALL_WRAPPERS.has(name))) return;
      if (ts.isPropertyAccessExpression(skipParens(parent.expression))) {
        if (name === 'then') return;
        if (object === 'assert' && (name === 'rejects' || name === 'throws')) return;
        if (object === 'common' && name && MUST_CALL_WRAPPERS.has(name)) return;
        if (object === 'process' && name === 'nextTick' && parent.arguments[0] === fn) return;
        if (object === 'process' && (name === 'on' || name === 'once') && parent.arguments[1] === fn &&
            ts.isStringLiteral(parent.arguments[0]) && parent.arguments[0].text === 'exit') return;
        if (object === 't' && name === 'test') return;
      }
    }
    report(call.getStart(sf), 'wrap the callback that asserts in common.mustCall() or common.mustSucceed()');
  };
  const mustCallName = (node: ts.Node): string | undefined => {
    if (!ts.isCallExpression(node)) return undefined;
    const [object, name] = calleeParts(node);
    return object === undefined || object === 'common' ? name : undefined;
  };
  const checkThenStatement = (call: ts.CallExpression): void => {
    const target = skipParens((call.expression as ts.PropertyAccessExpression).expression);
    if (ts.isCallExpression(target) && calleeParts(target)[1] === 'checkSupportReusePort' &&
        ts.isIdentifier(skipParens(target.expression))) return;
    const arg = call.arguments[0];
    if (call.arguments.length !== 1) {
      report(call.getStart(sf), 'give .then() exactly one argument (assert.rejects() for the rejection)');
    } else if (!ts.isCallExpression(arg)) {
      report(arg.getStart(sf), 'end a .then() chain with .then(common.mustCall())');
    } else {
      const name = mustCallName(arg);
      const fn = arg.arguments[0];
      let problem: string | undefined;
      if (name === 'mustCall') {
        if (arg.arguments.length > 1) problem = 'give mustCall() at most one argument here';
        else if (fn && isFunctionExpression(fn) && (fn.modifiers?.some((m) => m.kind === ts.SyntaxKind.AsyncKeyword) ||
                 (fn.body !== undefined && !ts.isBlock(fn.body)))) {
          problem = 'add .then(common.mustCall()) to see the resulting promise settle';
        }
      } else if (name === 'mustNotCall') {
        const label = arg.arguments[0];
        if (!(arg.arguments.length === 1 && label && ts.isStringLiteral(label) && label.text.includes('never settling'))) {
          problem = "label mustNotCall() 'expected never settling promise', or use mustCall()";
        }
      } else {
        problem = 'end a .then() chain with .then(common.mustCall())';
      }
      if (problem) report(arg.getStart(sf), problem);
    }
    for (let inner = skipParens((call.expression as ts.PropertyAccessExpression).expression);
      ts.isCallExpression(inner) && ts.isPropertyAccessExpression(inner.expression) && inner.expression.name.text === 'then';
      inner = skipParens(inner.expression.expression)) {
      if (inner.arguments[0] && mustCallName(inner.arguments[0]) === 'mustCall') {
        report(inner.getStart(sf), 'in a .then() chain, use mustCall() on the last .then() only');
      }
    }
  };
  const hasReturn = (node: ts.Node): boolean => ts.isReturnStatement(node) || (ts.forEachChild(node, hasReturn) ?? false);
  const visit = (node: ts.Node): void => {
    if (ts.isCallExpression(node)) {
      const callee = skipParens(node.expression);
      const [object, name] = calleeParts(node);
      const counter = nested && (name === 'mustCall' || name === 'mustCallAtLeast') &&
        (ts.isIdentifier(callee) || object === 'common');
      const asserts = counter || (ts.isIdentifier(callee) ? name === 'assert' :
        ts.isPropertyAccessExpression(callee) && object === 'assert' && name !== 'fail');
      if (asserts && inFunction(node)) checkAssertion(node);
      const arg = node.arguments[0];
      if (ts.isIdentifier(callee) && name === 'require' && arg && ts.isStringLiteral(arg) && ASSERT_MODULE.test(arg.text)) {
        const p = estreeParent(node);
        if (!(ts.isVariableDeclaration(p) && ts.isIdentifier(p.name) && p.name.text === 'assert')) {
          report(node.getStart(sf), 'bind node:assert to `assert` only');
        }
      }
      if (ts.isPropertyAccessExpression(callee) && callee.name.text === 'then') {
        if (ts.isExpressionStatement(node.parent)) checkThenStatement(node);
        const wrapped = arg && node.arguments.length === 1 && ts.isCallExpression(arg) && mustCallName(arg) === 'mustCall' &&
          arg.arguments.length === 1 ? arg.arguments[0] : undefined;
        if (wrapped && hasReturn(wrapped)) report(arg.getStart(sf), 'do not return from a mustCall() callback in a .then() chain');
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
}

export interface NodeTestLintOptions {
  /** must-call-assert's nested part (see mustCallAssert()); the fixtures' own tests do not all pass it. */
  nestedMustCall?: boolean;
}

/** Lints one test file's text; `name` is its file name (a test of test/parallel/ to ESLint). */
export function lintNodeTest(name: string, text: string, options: NodeTestLintOptions = {}): LintFinding[] {
  const sf = parseSource(name, text, 'js');
  const findings: LintFinding[] = [];
  const report = (rule: string, pos: number, message: string) => findings.push({ rule, line: lineOf(sf, pos), message });

  const requires: { path: string; pos: number }[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isCallExpression(node)) {
      const [object, name] = calleeParts(node);
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
      const fn = args[0] && skipParens(args[0]);
      if (object === 'common' && name === 'mustCall' && fn &&
          (isAssertIfError(fn) || ((ts.isArrowFunction(fn) || ts.isFunctionExpression(fn)) && startsWithIfError(fn)))) {
        report('prefer-common-mustsucceed', node.getStart(sf), 'use common.mustSucceed()');
      }
      const callee = skipParens(node.expression);
      if (ts.isExpressionStatement(node.parent) && (ts.isArrowFunction(callee) || ts.isFunctionExpression(callee)) &&
          callee.modifiers?.some((m) => m.kind === ts.SyntaxKind.AsyncKeyword)) {
        report('async-iife-no-unused-result', node.getStart(sf), 'use the async IIFE\'s promise: .then(common.mustCall())');
      }
    }
    if (ts.isIfStatement(node)) {
      const first = ts.isBlock(node.thenStatement) ? node.thenStatement.statements[0] : node.thenStatement;
      if (first && ts.isThrowStatement(first) &&
          sameTokens(sf, skipParens(node.expression), skipParens(first.expression))) {
        report('prefer-assert-iferror', first.getStart(sf), `use assert.ifError(${skipParens(node.expression).getText(sf)})`);
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);

  const common = requires.findIndex((r) => COMMON.test(r.path));
  if (common < 0) report('required-modules', sf.statements[0]?.getStart(sf) ?? 0, 'a test requires ../common');
  else if (common > 0) report('require-common-first', requires[0].pos, `require ../common before ${requires[0].path}`);

  mustCallAssert(sf, options.nestedMustCall ?? false, (pos, message) => report('must-call-assert', pos, message));
  findings.push(...skipCheckFindings(sf));
  findings.push(...rootRuleFindings(sf, { duplicateRequires: false }));
  findings.push(...eslintFindings(`test/parallel/${basename(name)}`, text, 'test'));
  return withoutDisabled(findings, text).sort((a, b) => a.line - b.line);
}
