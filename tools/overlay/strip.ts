// Type stripping as text edits: each piece of type syntax is cut out of the
// layer's own text, so everything else (formatting, comments, blank lines)
// stays exactly as the author wrote it. Unlike Node's whitespace-preserving
// stripper, removed syntax leaves no padding behind.
import type { Edit } from './edits.ts';
import { OverlayError, type Where } from './errors.ts';
import { isTypeOnlyMember, isTypeOnlyStatement } from './parse.ts';
import { attachedStart, ts } from './ts.ts';

const ERASED_MODIFIERS = new Set([
  ts.SyntaxKind.PublicKeyword, ts.SyntaxKind.PrivateKeyword, ts.SyntaxKind.ProtectedKeyword,
  ts.SyntaxKind.ReadonlyKeyword, ts.SyntaxKind.OverrideKeyword, ts.SyntaxKind.ExportKeyword,
]);

export interface StripResult {
  edits: Edit[];
  /** Whole-line removals (type-only members and statements), merged by the caller with directive lines. */
  lines: { start: number; end: number }[];
}

/** Start of the whitespace that precedes `pos`. */
function backOverSpace(text: string, pos: number): number {
  while (pos > 0 && /[ \t]/.test(text[pos - 1])) pos--;
  return pos;
}

function afterSpace(text: string, pos: number): number {
  while (pos < text.length && /[ \t]/.test(text[pos])) pos++;
  return pos;
}

export function stripEdits(sf: ts.SourceFile, roots: readonly ts.Node[], whereOf: (pos: number) => Where): StripResult {
  const text = sf.text;
  const edits: Edit[] = [];
  const lines: { start: number; end: number }[] = [];
  const cut = (start: number, end: number) => edits.push({ start, end, text: '', droppable: true });

  /** `: T` (with the colon and the space before it) ending at type.end. */
  const cutAnnotation = (type: ts.TypeNode, from?: number) => {
    let colon = type.getStart(sf) - 1;
    while (colon > 0 && /\s/.test(text[colon])) colon--;
    if (text[colon] !== ':') throw new OverlayError('internal: type annotation without a colon', whereOf(type.getStart(sf)));
    cut(from ?? backOverSpace(text, colon), type.end);
  };
  /** `<…>` around a type argument/parameter list. */
  const cutAngles = (list: ts.NodeArray<ts.Node>) => {
    let open = list.pos - 1;
    while (open > 0 && text[open] !== '<') open--;
    let close = list.end;
    while (close < text.length && text[close] !== '>') close++;
    cut(open, close + 1);
  };
  const cutModifiers = (node: ts.Node) => {
    if (!ts.canHaveModifiers(node)) return;
    for (const m of ts.getModifiers(node) ?? []) {
      if (ERASED_MODIFIERS.has(m.kind)) cut(m.getStart(sf), afterSpace(text, m.end));
    }
  };

  const visit = (node: ts.Node): void => {
    // Type syntax is cut by its owner (annotation, type arguments…); a
    // function type such as `Queue<() => void>` is not a function.
    if (ts.isTypeNode(node) && !ts.isExpressionWithTypeArguments(node)) return;
    if (ts.isTypeAssertionExpression(node)) {
      throw new OverlayError('write `x as T`, not `<T>x`', whereOf(node.getStart(sf)));
    }
    if (ts.isClassDeclaration(node) || ts.isClassExpression(node)) {
      cutModifiers(node);
      if (node.typeParameters) cutAngles(node.typeParameters);
      for (const clause of node.heritageClauses ?? []) {
        if (clause.token === ts.SyntaxKind.ImplementsKeyword) cut(backOverSpace(text, clause.getStart(sf)), clause.end);
        else clause.types.forEach(visit);
      }
      for (const member of node.members) {
        if (isTypeOnlyMember(member)) lines.push({ start: attachedStart(sf, member), end: member.end });
        else visit(member);
      }
      return;
    }
    if (ts.isBlock(node) || ts.isSourceFile(node) || ts.isModuleBlock(node)) {
      for (const stmt of node.statements) {
        if (isTypeOnlyStatement(stmt)) lines.push({ start: attachedStart(sf, stmt), end: stmt.end });
        else visit(stmt);
      }
      return;
    }
    if (ts.isFunctionLike(node)) {
      cutModifiers(node);
      if (node.typeParameters) cutAngles(node.typeParameters);
      const params = node.parameters;
      params.forEach((p, i) => {
        if (ts.isIdentifier(p.name) && p.name.text === 'this') {
          // `this: T` is erased with the comma that follows it.
          const next = params[i + 1];
          cut(p.getStart(sf), next ? next.getStart(sf) : p.end);
          return;
        }
        visit(p);
      });
      if (node.type) cutAnnotation(node.type);
      if ('body' in node && node.body) visit(node.body);
      const name = (node as ts.MethodDeclaration).name as ts.Node | undefined;
      if (name && ts.isComputedPropertyName(name)) visit(name);
      return;
    }
    if (ts.isParameter(node) || ts.isPropertyDeclaration(node) || ts.isVariableDeclaration(node)) {
      if (ts.isPropertyDeclaration(node)) cutModifiers(node);
      if (ts.isParameter(node) && ts.getModifiers(node)?.length) {
        throw new OverlayError('parameter properties are not erasable syntax', whereOf(node.getStart(sf)));
      }
      const marker = (node as ts.ParameterDeclaration).questionToken ?? (node as ts.PropertyDeclaration).exclamationToken ??
        (node as ts.VariableDeclaration).exclamationToken ?? (node as ts.PropertyDeclaration).questionToken;
      if (marker) cut(marker.getStart(sf), node.type ? node.type.end : marker.end);
      else if (node.type) cutAnnotation(node.type);
      visit(node.name);
      if (node.initializer) visit(node.initializer);
      return;
    }
    if (ts.isAsExpression(node) || ts.isSatisfiesExpression(node)) {
      visit(node.expression);
      cut(node.expression.end, node.end);
      return;
    }
    if (ts.isNonNullExpression(node)) {
      visit(node.expression);
      cut(node.end - 1, node.end);
      return;
    }
    if ((ts.isCallExpression(node) || ts.isNewExpression(node) || ts.isTaggedTemplateExpression(node) ||
         ts.isExpressionWithTypeArguments(node)) && node.typeArguments) {
      cutAngles(node.typeArguments);
    }
    if (ts.isVariableStatement(node)) cutModifiers(node);
    if (ts.isTypeNode(node) && !ts.isExpressionWithTypeArguments(node)) return;
    ts.forEachChild(node, visit);
  };
  for (const root of roots) visit(root);
  return { edits, lines };
}
