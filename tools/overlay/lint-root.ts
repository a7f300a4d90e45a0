// Node's own rules that its root ESLint config enables for every JS file
// (tools/eslint-rules, stripped from the fixtures with the configs), on the
// TypeScript AST:
//   prefer-optional-chaining  `a && a.b` → `a?.b`: an operand of an && chain that is a member access
//                             on the operand before it, token for token
//   prefer-proto              `{ __proto__: x }`, not ObjectCreate(x) or Object.create(x)
//   no-duplicate-requires     a module required twice at a module's top level (test/ turns it off)
import type { LintFinding } from './lint.ts';
import { estreeParent, lineOf, skipParens, ts } from './ts.ts';

function isAnd(node: ts.Node): node is ts.BinaryExpression {
  return ts.isBinaryExpression(node) && node.operatorToken.kind === ts.SyntaxKind.AmpersandAmpersandToken;
}

/** The node's tokens as ESLint sees them (its own parentheses are not part of it). */
function tokens(sf: ts.SourceFile, node: ts.Node): string[] {
  const scanner = ts.createScanner(ts.ScriptTarget.Latest, true, ts.LanguageVariant.Standard, node.getText(sf));
  const out: string[] = [];
  while (scanner.scan() !== ts.SyntaxKind.EndOfFileToken) out.push(scanner.getTokenText());
  return out;
}

/** A member access ESTree keeps as a MemberExpression: not part of an optional chain. */
function memberObject(node: ts.Expression): ts.Expression | undefined {
  if ((ts.isPropertyAccessExpression(node) || ts.isElementAccessExpression(node)) && !ts.isOptionalChain(node)) {
    return node.expression;
  }
  return undefined;
}

/** The && chain's operands, left to right, without their parentheses. */
function andOperands(node: ts.BinaryExpression): ts.Expression[] {
  const out: ts.Expression[] = [];
  let current: ts.Expression = node;
  while (isAnd(current)) {
    out.unshift(skipParens(current.right));
    current = skipParens(current.left);
  }
  out.unshift(current);
  return out;
}

/** Whether a call is outside every function and class body. */
function atTopLevel(node: ts.Node): boolean {
  for (let p = node.parent; p; p = p.parent) if (ts.isFunctionLike(p) || ts.isClassLike(p)) return false;
  return true;
}

export function rootRuleFindings(sf: ts.SourceFile, { duplicateRequires }: { duplicateRequires: boolean }): LintFinding[] {
  const findings: LintFinding[] = [];
  const report = (rule: string, node: ts.Node, message: string) =>
    findings.push({ rule, line: lineOf(sf, node.getStart(sf)), message });
  const required = new Set<string>();
  const visit = (node: ts.Node): void => {
    const outer = estreeParent(node);
    if (isAnd(node) && !(outer && isAnd(outer))) {
      const ops = andOperands(node);
      const chained = ops.some((op, i) => {
        const object = i > 0 ? memberObject(op) : undefined;
        return object !== undefined && tokens(sf, skipParens(object)).join(' ') === tokens(sf, ops[i - 1]).join(' ');
      });
      if (chained) report('prefer-optional-chaining', node, 'use optional chaining (a?.b) for a && a.b');
    }
    if (ts.isCallExpression(node) && node.arguments.length === 1) {
      const callee = skipParens(node.expression);
      if ((ts.isIdentifier(callee) && callee.text === 'ObjectCreate') ||
          (ts.isPropertyAccessExpression(callee) && ts.isIdentifier(callee.expression) &&
           callee.expression.text === 'Object' && callee.name.text === 'create')) {
        report('prefer-proto', node, `use { __proto__: ${node.arguments[0].getText(sf)} } instead`);
      }
    }
    if (duplicateRequires && ts.isCallExpression(node) && ts.isIdentifier(node.expression) &&
        node.expression.text === 'require' && node.arguments[0] && ts.isStringLiteralLike(node.arguments[0]) &&
        atTopLevel(node)) {
      const name = node.arguments[0].text.trim();
      if (required.has(name)) report('no-duplicate-requires', node, `'${name}' is required twice`);
      required.add(name);
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return findings;
}
