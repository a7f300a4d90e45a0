// Node's lint for the tests a layer ships into Node's tree
// (<layer>/node/test/parallel/*.js). Node's CI lints test/ with rules of its
// own that lib code does not have; Debian strips Node's ESLint configs and
// rules from the fixtures, so, as tools/overlay/lint.ts does for lib code,
// this re-implements on the TypeScript AST the ones a webstreams test meets:
//   parse                      the file parses (V8's natives syntax does not: compile it from a string)
//   strict                     the file starts with 'use strict'
//   required-modules           it requires ../common
//   require-common-first       before any other module
//   prefer-assert-methods      assert(a === b) → assert.strictEqual(a, b), and the like
//   prefer-common-mustnotcall  common.mustCall(fn, 0) → common.mustNotCall()
//   async-iife-no-unused-result  an async IIFE's promise is used (.then(common.mustCall()))
//   no-restricted-syntax       test/'s selectors: literals where strictEqual belongs, the actual/expected
//                              order, assert.throws/rejects with one argument, doesNotThrow/doesNotReject,
//                              an unawaited assert.rejects, an empty function in mustCall, the global isNaN
//   multiline-comment-style    // lines, not a multi-line /* */ block (JSDoc is allowed)
//   prefer-const               a `let` with an initializer that is never assigned again
//   no-unused-vars             a declared name that is never used (scope-blind, so it errs towards "used")
//   comma-dangle               a multi-line array ends with a comma; nothing on one line does
//   and the rules of Node's root config that hold for lib code too (tools/overlay/lint-style.ts)
import type { LintFinding } from './lint.ts';
import { commentRanges, styleFindings, withoutDisabled } from './lint-style.ts';
import { lineOf, parseSource, referencedNames, ts } from './ts.ts';

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

/** Names a `let` gives to plain identifiers, with whether each has a value from the declaration. */
function letNames(sf: ts.SourceFile): { name: ts.Identifier; initialized: boolean }[] {
  const out: { name: ts.Identifier; initialized: boolean }[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isVariableDeclarationList(node) && node.flags & ts.NodeFlags.Let) {
      const loopHead = ts.isForOfStatement(node.parent) || ts.isForInStatement(node.parent);
      for (const d of node.declarations) {
        if (ts.isIdentifier(d.name)) out.push({ name: d.name, initialized: loopHead || d.initializer !== undefined });
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return out;
}

/** Every name assigned anywhere after its declaration (=, op=, ++, --, a destructuring target). */
function assignedNames(sf: ts.SourceFile): Set<string> {
  const out = new Set<string>();
  const target = (node: ts.Expression): void => {
    const e = skipParens(node);
    if (ts.isIdentifier(e)) out.add(e.text);
    else if (ts.isArrayLiteralExpression(e)) e.elements.forEach((el) => target(ts.isSpreadElement(el) ? el.expression : el));
    else if (ts.isObjectLiteralExpression(e)) {
      for (const p of e.properties) {
        if (ts.isShorthandPropertyAssignment(p)) out.add(p.name.text);
        else if (ts.isPropertyAssignment(p)) target(p.initializer);
        else if (ts.isSpreadAssignment(p)) target(p.expression);
      }
    } else if (ts.isBinaryExpression(e) && e.operatorToken.kind === ts.SyntaxKind.EqualsToken) target(e.left);
  };
  const visit = (node: ts.Node): void => {
    if (ts.isBinaryExpression(node) && node.operatorToken.kind >= ts.SyntaxKind.FirstAssignment &&
        node.operatorToken.kind <= ts.SyntaxKind.LastAssignment) {
      target(node.left);
    } else if ((ts.isPrefixUnaryExpression(node) || ts.isPostfixUnaryExpression(node)) &&
        (node.operator === ts.SyntaxKind.PlusPlusToken || node.operator === ts.SyntaxKind.MinusMinusToken)) {
      target(node.operand);
    } else if ((ts.isForOfStatement(node) || ts.isForInStatement(node)) && !ts.isVariableDeclarationList(node.initializer)) {
      target(node.initializer);
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return out;
}

/** Names declared by variables, functions and classes (not parameters or caught errors: Node's config leaves those). */
function declaredNames(sf: ts.SourceFile): ts.Identifier[] {
  const out: ts.Identifier[] = [];
  const bind = (name: ts.BindingName): void => {
    if (ts.isIdentifier(name)) out.push(name);
    else for (const el of name.elements) if (!ts.isOmittedExpression(el)) bind(el.name);
  };
  const visit = (node: ts.Node): void => {
    if (ts.isVariableDeclaration(node) && !ts.isCatchClause(node.parent)) bind(node.name);
    else if ((ts.isFunctionDeclaration(node) || ts.isClassDeclaration(node)) && node.name) out.push(node.name);
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return out;
}

/** The comma-dangle rule over one list: `multiline` says where a trailing comma is required. */
function commaDangle(sf: ts.SourceFile, list: ts.NodeArray<ts.Node>, closing: number, required: boolean,
  report: (pos: number, message: string) => void): void {
  if (list.length === 0) return;
  const last = list[list.length - 1];
  const multiline = lineOf(sf, last.getEnd()) !== lineOf(sf, closing);
  if (multiline && required && !list.hasTrailingComma) report(last.getEnd(), 'a multi-line list ends with a comma');
  if (!multiline && list.hasTrailingComma) report(last.getEnd(), 'no trailing comma on one line');
}

/** The parser's syntax errors (V8's natives syntax, `%Name()`, among them: ESLint cannot parse it either). */
function parseErrors(sf: ts.SourceFile): readonly ts.DiagnosticWithLocation[] {
  return (sf as unknown as { parseDiagnostics?: ts.DiagnosticWithLocation[] }).parseDiagnostics ?? [];
}

/** Lints one test file's text; `name` is for the parser's messages. */
export function lintNodeTest(name: string, text: string): LintFinding[] {
  const sf = parseSource(name, text, 'js');
  const findings: LintFinding[] = [];
  const report = (rule: string, pos: number, message: string) => findings.push({ rule, line: lineOf(sf, pos), message });

  for (const d of parseErrors(sf)) report('parse', d.start ?? 0, `Node's lint cannot parse this: ${ts.flattenDiagnosticMessageText(d.messageText, ' ')}`);

  const first = sf.statements[0];
  if (!first || !ts.isExpressionStatement(first) || !ts.isStringLiteral(first.expression) || first.expression.text !== 'use strict') {
    report('strict', first?.getStart(sf) ?? 0, "the file starts with 'use strict';");
  }

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
      commaDangle(sf, args, node.getEnd() - 1, false, (pos, m) => report('comma-dangle', pos, m));
    }
    if (ts.isArrayLiteralExpression(node) || ts.isArrayBindingPattern(node)) {
      commaDangle(sf, node.elements, node.getEnd() - 1, true, (pos, m) => report('comma-dangle', pos, m));
    }
    if (ts.isObjectLiteralExpression(node) || ts.isObjectBindingPattern(node)) {
      const list = ts.isObjectLiteralExpression(node) ? node.properties : node.elements;
      commaDangle(sf, list, node.getEnd() - 1, false, (pos, m) => report('comma-dangle', pos, m));
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);

  const common = requires.findIndex((r) => COMMON.test(r.path));
  if (common < 0) report('required-modules', 0, 'a test requires ../common');
  else if (common > 0) report('require-common-first', requires[0].pos, `require ../common before ${requires[0].path}`);

  for (const c of commentRanges(sf)) {
    if (c.kind === ts.SyntaxKind.MultiLineCommentTrivia && !text.startsWith('/**', c.pos) && text.slice(c.pos, c.end).includes('\n')) {
      report('multiline-comment-style', c.pos, 'use // lines for a comment of several lines');
    }
  }

  const assigned = assignedNames(sf);
  for (const { name, initialized } of letNames(sf)) {
    if (initialized && !assigned.has(name.text)) report('prefer-const', name.getStart(sf), `'${name.text}' is never assigned again; use const`);
  }
  const used = referencedNames(sf);
  for (const name of declaredNames(sf)) {
    if (!used.has(name.text)) report('no-unused-vars', name.getStart(sf), `'${name.text}' is never used`);
  }

  findings.push(...styleFindings(sf, text));
  return withoutDisabled(findings, text).sort((a, b) => a.line - b.line);
}
