// Node's own rules that its root ESLint config enables for every JS file
// (tools/eslint-rules, stripped from the fixtures with the configs), on the
// TypeScript AST:
//   prefer-optional-chaining  `a && a.b` → `a?.b`: an operand of an && chain that is a member access
//                             on the operand before it, token for token
//   prefer-proto              `{ __proto__: x }`, not ObjectCreate(x) or Object.create(x)
//   no-duplicate-requires     a module required twice at a module's top level (test/ turns it off)
//   no-unescaped-regexp-dot   a `.` in a regular expression (a literal, or the strings and templates RegExp()
//                             is called with) outside a class and not followed by + * ? or {
import type { LintFinding } from './lint.ts';
import { calleeIdentifier, calleeParts, estreeParent, lineOf, sameTokens, skipParens, ts } from './ts.ts';

function isAnd(node: ts.Node): node is ts.BinaryExpression {
  return ts.isBinaryExpression(node) && node.operatorToken.kind === ts.SyntaxKind.AmpersandAmpersandToken;
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

const DOT_QUANTIFIERS = new Set(['+', '*', '?', '{']);

/**
 * The pieces of a regular expression's source (read as one: an escape or a class may span them) with a
 * dot that matches one character: `a.b`, not `a\.b`, `[.]`, `.*` or `.{2}`. A dot that ends a piece counts.
 */
function piecesWithDots(pieces: { node: ts.Node; text: string }[]): ts.Node[] {
  const out: ts.Node[] = [];
  let escaping = false;
  let inClass = false;
  for (const { node, text } of pieces) {
    for (let i = 0; i < text.length; i++) {
      const c = text[i];
      if (c === '\\') {
        escaping = !escaping;
      } else if (escaping) {
        escaping = false;
      } else if (c === '[') {
        inClass = true;
      } else if (c === ']') {
        inClass = false;
      } else if (c === '.' && !inClass && (i + 1 === text.length || !DOT_QUANTIFIERS.has(text[i + 1]))) {
        out.push(node);
      }
    }
  }
  return out;
}

/** The string and template pieces of a RegExp() argument: the argument, or the leaves of its binary operators. */
function regExpPieces(node: ts.Expression, out: { node: ts.Node; text: string }[]): void {
  const e = skipParens(node);
  if (ts.isBinaryExpression(e) && !isLogicalOrAssignment(e.operatorToken.kind)) {
    regExpPieces(e.left, out);
    regExpPieces(e.right, out);
  } else if (ts.isStringLiteral(e) || ts.isNoSubstitutionTemplateLiteral(e)) {
    if (e.text) out.push({ node: e, text: e.text });
  } else if (ts.isTemplateExpression(e)) {
    for (const part of [e.head, ...e.templateSpans.map((span) => span.literal)]) {
      if (part.text) out.push({ node: part, text: part.text });
    }
  }
}

/** Operators ESTree keeps out of BinaryExpression: logical ones, assignments and the comma. */
function isLogicalOrAssignment(kind: ts.SyntaxKind): boolean {
  return kind === ts.SyntaxKind.AmpersandAmpersandToken || kind === ts.SyntaxKind.BarBarToken ||
    kind === ts.SyntaxKind.QuestionQuestionToken || kind === ts.SyntaxKind.CommaToken ||
    (kind >= ts.SyntaxKind.FirstAssignment && kind <= ts.SyntaxKind.LastAssignment);
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
        return object !== undefined && sameTokens(sf, skipParens(object), ops[i - 1]);
      });
      if (chained) report('prefer-optional-chaining', node, 'use optional chaining (a?.b) for a && a.b');
    }
    if (ts.isCallExpression(node) && node.arguments.length === 1) {
      const [object, name] = calleeParts(node);
      if (calleeIdentifier(node) === 'ObjectCreate' || (object === 'Object' && name === 'create')) {
        report('prefer-proto', node, `use { __proto__: ${node.arguments[0].getText(sf)} } instead`);
      }
    }
    if (ts.isRegularExpressionLiteral(node)) {
      const pattern = node.text.slice(1, node.text.lastIndexOf('/'));
      for (const at of piecesWithDots([{ node, text: pattern }])) report('no-unescaped-regexp-dot', at, 'escape the dot, or quantify it');
    }
    if ((ts.isCallExpression(node) || ts.isNewExpression(node)) && calleeIdentifier(node) === 'RegExp') {
      const pieces: { node: ts.Node; text: string }[] = [];
      for (const arg of node.arguments ?? []) regExpPieces(arg, pieces);
      for (const at of piecesWithDots(pieces)) report('no-unescaped-regexp-dot', at, 'escape the dot, or quantify it');
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
