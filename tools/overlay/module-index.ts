// What a lib module (CommonJS, Node lib style) binds at top level and where
// the places the splicer edits are: the primordials header, the require /
// internalBinding destructurings, the prologue, module.exports.
import { attachedStart, parseSource, ts } from './ts.ts';

export interface TopDecl {
  kind: 'function' | 'class' | 'variable';
  name: string;
  node: ts.FunctionDeclaration | ts.ClassDeclaration | ts.VariableStatement;
  /** Start of its attached comments (or of the node). */
  start: number;
}

export interface Destructuring {
  stmt: ts.VariableStatement;
  pattern: ts.ObjectBindingPattern;
  /** `primordials`, `require('m')` or `internalBinding('m')`. */
  source: string;
}

export interface ModuleIndex {
  sf: ts.SourceFile;
  text: string;
  decls: Map<string, TopDecl>;
  /** Every top-level name → how it is bound (for error messages). */
  bound: Map<string, string>;
  destructurings: Destructuring[];
  /** `const x = require('m')` → source. */
  wholeRequires: Map<string, { stmt: ts.VariableStatement; source: string }>;
  /** The last statement that destructures/requires a module: new requires go after it. */
  requireBlockEnd?: ts.Statement;
  /** The last statement before the first function or class: new const/let go after it. */
  prologueEnd?: ts.Statement;
  exports?: { stmt: ts.ExpressionStatement; object: ts.ObjectLiteralExpression; keys: Map<string, string | undefined> };
}

export function sourceOf(init: ts.Expression | undefined): string | undefined {
  if (!init) return undefined;
  if (ts.isIdentifier(init) && init.text === 'primordials') return 'primordials';
  if (ts.isCallExpression(init) && ts.isIdentifier(init.expression) &&
      (init.expression.text === 'require' || init.expression.text === 'internalBinding') &&
      init.arguments.length === 1 && ts.isStringLiteral(init.arguments[0])) {
    return `${init.expression.text}('${init.arguments[0].text}')`;
  }
  return undefined;
}

/** Names a binding pattern declares (nested patterns included). */
export function patternNames(pattern: ts.BindingName): string[] {
  if (ts.isIdentifier(pattern)) return [pattern.text];
  return pattern.elements.flatMap((el) => (ts.isOmittedExpression(el) ? [] : patternNames(el.name)));
}

/** The property an entry reads: `a` for `a` and `a: b`. */
export function entryKey(el: ts.BindingElement): string {
  const p = el.propertyName ?? el.name;
  return ts.isIdentifier(p) || ts.isStringLiteral(p) ? p.text : p.getText();
}

export function indexModule(text: string, fileName = 'module.js'): ModuleIndex {
  const sf = parseSource(fileName, text, 'js');
  const idx: ModuleIndex = { sf, text, decls: new Map(), bound: new Map(), destructurings: [], wholeRequires: new Map() };
  let inPrologue = true;
  for (const stmt of sf.statements) {
    if (ts.isFunctionDeclaration(stmt) || ts.isClassDeclaration(stmt)) {
      inPrologue = false;
      if (stmt.name) {
        const kind = ts.isFunctionDeclaration(stmt) ? 'function' : 'class';
        idx.decls.set(stmt.name.text, { kind, name: stmt.name.text, node: stmt, start: attachedStart(sf, stmt) });
        idx.bound.set(stmt.name.text, `${kind} ${stmt.name.text}`);
      }
      continue;
    }
    if (inPrologue) idx.prologueEnd = stmt;
    if (ts.isExpressionStatement(stmt) && ts.isBinaryExpression(stmt.expression) &&
        stmt.expression.operatorToken.kind === ts.SyntaxKind.EqualsToken &&
        stmt.expression.left.getText(sf) === 'module.exports' && ts.isObjectLiteralExpression(stmt.expression.right)) {
      const keys = new Map<string, string | undefined>();
      for (const p of stmt.expression.right.properties) {
        if (ts.isShorthandPropertyAssignment(p)) keys.set(p.name.text, p.name.text);
        else if (ts.isPropertyAssignment(p) && (ts.isIdentifier(p.name) || ts.isStringLiteral(p.name))) {
          keys.set(p.name.text, ts.isIdentifier(p.initializer) ? p.initializer.text : undefined);
        } else if (p.name && ts.isIdentifier(p.name)) keys.set(p.name.text, undefined);
      }
      idx.exports = { stmt, object: stmt.expression.right, keys };
      continue;
    }
    if (!ts.isVariableStatement(stmt)) continue;
    const decls = stmt.declarationList.declarations;
    for (const d of decls) {
      const source = sourceOf(d.initializer);
      const how = source ? `${ts.isIdentifier(d.name) ? '' : 'destructuring of '}${source}` : 'a top-level variable';
      for (const n of patternNames(d.name)) idx.bound.set(n, how);
      if (source) idx.requireBlockEnd = stmt;
      if (decls.length !== 1) continue;
      if (source && ts.isObjectBindingPattern(d.name)) idx.destructurings.push({ stmt, pattern: d.name, source });
      else if (source && ts.isIdentifier(d.name)) idx.wholeRequires.set(d.name.text, { stmt, source });
      if (ts.isIdentifier(d.name)) {
        idx.decls.set(d.name.text, { kind: 'variable', name: d.name.text, node: stmt, start: attachedStart(sf, stmt) });
      }
    }
  }
  return idx;
}

export function findDestructuring(idx: ModuleIndex, source: string): Destructuring | undefined {
  return idx.destructurings.find((d) => d.source === source);
}
