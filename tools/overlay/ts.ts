// The TypeScript compiler API (the copy ts-morph bundles, which has full
// type information) plus the text helpers every overlay stage shares.
import { ts } from 'ts-morph';

export { ts };

/** Parses JS (a lib module) or TS (a layer file) without type information. */
export function parseSource(fileName: string, text: string, kind: 'js' | 'ts'): ts.SourceFile {
  return ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true, kind === 'js' ? ts.ScriptKind.JS : ts.ScriptKind.TS);
}

/** 1-based line of a position. */
export function lineOf(sf: ts.SourceFile, pos: number): number {
  return sf.getLineAndCharacterOfPosition(pos).line + 1;
}

export function lineStart(text: string, pos: number): number {
  return text.lastIndexOf('\n', pos - 1) + 1;
}

/** Position just after the newline that ends the line holding `pos` (or the text's end). */
export function nextLineStart(text: string, pos: number): number {
  const nl = text.indexOf('\n', pos);
  return nl < 0 ? text.length : nl + 1;
}

/** Leading whitespace of the line holding `pos`. */
export function indentAt(text: string, pos: number): string {
  const start = lineStart(text, pos);
  return /^[ \t]*/.exec(text.slice(start))![0];
}

export const DIRECTIVE = /^\/\/\s*@overlay-([\w-]+)\b(.*)$/;

/**
 * Where a node's attached comments start: the run of comments directly
 * above it with no blank line in between (a JSDoc block, `//` lines).
 * Overlay directives in the run are cut out later as whole lines.
 */
export function attachedStart(sf: ts.SourceFile, node: ts.Node): number {
  const text = sf.text;
  const start = node.getStart(sf);
  const comments = ts.getLeadingCommentRanges(text, node.pos) ?? [];
  let at = start;
  for (let i = comments.length - 1; i >= 0; i--) {
    const c = comments[i];
    const between = text.slice(c.end, at);
    // A blank line (two newlines) detaches the comment.
    if ((between.match(/\n/g)?.length ?? 0) > 1 || /\S/.test(between)) break;
    at = c.pos;
  }
  return at;
}

/** The expression inside any parentheses around it. */
export function skipParens(node: ts.Expression): ts.Expression {
  return ts.isParenthesizedExpression(node) ? skipParens(node.expression) : node;
}

/** The callee's name when it is a plain identifier (`name(…)`, `new Name(…)`), parentheses skipped. */
export function calleeIdentifier(call: ts.CallExpression | ts.NewExpression): string | undefined {
  const callee = skipParens(call.expression);
  return ts.isIdentifier(callee) ? callee.text : undefined;
}

/** `x.name` or `name` as a callee: [object name or undefined, name]. */
export function calleeParts(call: ts.CallExpression | ts.NewExpression): [string | undefined, string | undefined] {
  const callee = skipParens(call.expression);
  if (ts.isIdentifier(callee)) return [undefined, callee.text];
  if (ts.isPropertyAccessExpression(callee)) {
    return [ts.isIdentifier(callee.expression) ? callee.expression.text : undefined, callee.name.text];
  }
  return [undefined, undefined];
}

/** The parent ESLint's ESTree would give a node: TypeScript's parentheses are not nodes there. */
export function estreeParent(node: ts.Node): ts.Node {
  let p = node.parent;
  while (p && ts.isParenthesizedExpression(p)) p = p.parent;
  return p;
}

/** A node's tokens as ESLint's getTokens() gives them (its own parentheses are not part of it). */
function tokenTexts(sf: ts.SourceFile, node: ts.Node): string[] {
  const scanner = ts.createScanner(ts.ScriptTarget.Latest, true, ts.LanguageVariant.Standard, node.getText(sf));
  const out: string[] = [];
  while (scanner.scan() !== ts.SyntaxKind.EndOfFileToken) out.push(scanner.getTokenText());
  return out;
}

/** Whether two nodes are the same tokens, as Node's rules compare them (whitespace and comments aside). */
export function sameTokens(sf: ts.SourceFile, a: ts.Node, b: ts.Node): boolean {
  const x = tokenTexts(sf, a);
  const y = tokenTexts(sf, b);
  return x.length === y.length && x.every((token, i) => token === y[i]);
}

/** Whether an identifier stands for a value here (not a declared name, property name or label). */
export function isReference(id: ts.Identifier): boolean {
  const p = id.parent;
  if (ts.isPropertyAccessExpression(p)) return p.expression === id;
  if ((ts.isPropertyAssignment(p) || ts.isPropertyDeclaration(p) || ts.isMethodDeclaration(p) ||
       ts.isGetAccessorDeclaration(p) || ts.isSetAccessorDeclaration(p) || ts.isFunctionDeclaration(p) ||
       ts.isFunctionExpression(p) || ts.isClassDeclaration(p) || ts.isClassExpression(p) ||
       ts.isVariableDeclaration(p) || ts.isParameter(p) || ts.isPropertySignature(p) || ts.isMethodSignature(p)) && p.name === id) {
    return false;
  }
  if (ts.isBindingElement(p)) return false;
  if (ts.isLabeledStatement(p) || ts.isBreakOrContinueStatement(p)) return false;
  return true;
}

/** Every name used as a value anywhere in the file (scope-blind, so it errs towards "used"). */
export function referencedNames(sf: ts.SourceFile): Set<string> {
  const out = new Set<string>();
  const visit = (node: ts.Node): void => {
    if (ts.isIdentifier(node)) {
      if (isReference(node)) out.add(node.text);
      return;
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return out;
}
