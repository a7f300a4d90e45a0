// Reads a sparse layer file into what it asks for: imports, destructurings
// of primordials/internalBinding, top-level declarations (function, class,
// const/let), removals and exports. Type-only syntax is recognised here and
// left to the stripper. Anything else is an error naming layer, file, line.
import type { LayerModuleFile } from './source.ts';
import { OverlayError, type Where } from './errors.ts';
import { DIRECTIVE, lineOf, ts } from './ts.ts';

export interface ImportItem {
  module: string;
  specifiers: { imported: string; local: string }[];
  /** `import x from 'm'` or `import * as x from 'm'`: `const x = require('m')`. */
  whole?: string;
  where: Where;
}

export interface BindingItem {
  /** `primordials` or `internalBinding('name')`, as written in the module. */
  source: string;
  entries: { prop: string; local: string }[];
  where: Where;
}

/** `any`: replace if the name exists, else add; `add`/`replace` assert which. */
export type Mode = 'any' | 'add' | 'replace';

export interface MemberItem {
  key: string;
  node: ts.ClassElement;
  mode: 'add' | 'replace';
  where: Where;
}

export interface DeclItem {
  kind: 'function' | 'class' | 'variable';
  name: string;
  node: ts.FunctionDeclaration | ts.ClassDeclaration | ts.VariableStatement;
  exported: boolean;
  mode: Mode;
  /** `// @overlay-after <name>`: where a new declaration goes. */
  after?: string;
  where: Where;
  members: MemberItem[];
  memberRemovals: RemovalItem[];
}

export interface RemovalItem {
  name: string;
  where: Where;
}

export interface ExportItem {
  names: string[];
  where: Where;
}

export interface ParsedLayerFile {
  file: LayerModuleFile;
  sf: ts.SourceFile;
  imports: ImportItem[];
  bindings: BindingItem[];
  decls: DeclItem[];
  removals: RemovalItem[];
  exports: ExportItem[];
  /** Ranges of `// @overlay-…` lines, which never reach the output. */
  directiveRanges: { pos: number; end: number }[];
}

interface Directive {
  name: string;
  arg: string;
  pos: number;
  end: number;
  where: Where;
}

const hasModifier = (node: ts.Node, kind: ts.SyntaxKind) =>
  ts.canHaveModifiers(node) && (ts.getModifiers(node) ?? []).some((m) => m.kind === kind);

/** A class member's merge key: `name`, `static name`, `get name`, `set name`, `[expr]`, `#name`, `constructor`. */
export function memberKey(member: ts.ClassElement, sf: ts.SourceFile): string | undefined {
  if (ts.isConstructorDeclaration(member)) return 'constructor';
  const name = member.name;
  if (!name) return undefined;
  let text: string;
  if (ts.isComputedPropertyName(name)) text = `[${name.expression.getText(sf)}]`;
  else if (ts.isStringLiteral(name) || ts.isNumericLiteral(name)) text = name.text;
  else text = name.getText(sf);
  const prefix = ts.isGetAccessorDeclaration(member) ? 'get ' : ts.isSetAccessorDeclaration(member) ? 'set ' : '';
  return `${hasModifier(member, ts.SyntaxKind.StaticKeyword) ? 'static ' : ''}${prefix}${text}`;
}

/** Normalises a key written in a directive (`static  get  x` → `static get x`). */
export function normalizeKey(key: string): string {
  return key.trim().replace(/\s+/g, ' ');
}

/** Members that only exist for the type checker (stripped, never merged). */
export function isTypeOnlyMember(member: ts.ClassElement): boolean {
  if (ts.isIndexSignatureDeclaration(member) || ts.isSemicolonClassElement(member)) return true;
  if (hasModifier(member, ts.SyntaxKind.DeclareKeyword) || hasModifier(member, ts.SyntaxKind.AbstractKeyword)) return true;
  if ((ts.isMethodDeclaration(member) || ts.isConstructorDeclaration(member)) && !member.body) return true;
  return false;
}

/** Statements that only exist for the type checker. */
export function isTypeOnlyStatement(stmt: ts.Statement): boolean {
  if (ts.isInterfaceDeclaration(stmt) || ts.isTypeAliasDeclaration(stmt)) return true;
  if (hasModifier(stmt, ts.SyntaxKind.DeclareKeyword)) return true;
  if (ts.isFunctionDeclaration(stmt) && !stmt.body) return true;
  if (ts.isImportDeclaration(stmt) && stmt.importClause?.isTypeOnly) return true;
  if (ts.isExportDeclaration(stmt) && stmt.isTypeOnly) return true;
  if (ts.isImportEqualsDeclaration(stmt) && stmt.isTypeOnly) return true;
  return false;
}

function bindingSource(init: ts.Expression | undefined, sf: ts.SourceFile): string | undefined {
  if (!init) return undefined;
  if (ts.isIdentifier(init) && init.text === 'primordials') return 'primordials';
  if (ts.isCallExpression(init) && ts.isIdentifier(init.expression) && init.expression.text === 'internalBinding' &&
      init.arguments.length === 1 && ts.isStringLiteral(init.arguments[0])) {
    return `internalBinding('${init.arguments[0].text}')`;
  }
  void sf;
  return undefined;
}

export function parseLayerFile(file: LayerModuleFile, sf: ts.SourceFile): ParsedLayerFile {
  const text = sf.text;
  const where = (pos: number): Where => ({ layer: file.layer.name, file: file.path, line: lineOf(sf, pos) });
  const fail = (pos: number, message: string): never => {
    throw new OverlayError(message, where(pos));
  };
  const out: ParsedLayerFile = { file, sf, imports: [], bindings: [], decls: [], removals: [], exports: [], directiveRanges: [] };

  const readDirectives = (pos: number): Directive[] => {
    const found: Directive[] = [];
    for (const c of ts.getLeadingCommentRanges(text, pos) ?? []) {
      const m = DIRECTIVE.exec(text.slice(c.pos, c.end));
      if (!m) continue;
      const d = { name: m[1], arg: m[2].trim(), pos: c.pos, end: c.end, where: where(c.pos) };
      if (!['remove', 'add', 'replace', 'after'].includes(d.name)) {
        fail(c.pos, `unknown directive @overlay-${d.name} (known: @overlay-remove, @overlay-add, @overlay-replace, @overlay-after)`);
      }
      out.directiveRanges.push({ pos: c.pos, end: c.end });
      found.push(d);
    }
    return found;
  };
  const removalsOf = (ds: Directive[], key: (s: string) => string): RemovalItem[] => ds
    .filter((d) => d.name === 'remove')
    .flatMap((d) => {
      const names = d.arg.split(',').map((s) => key(s)).filter(Boolean);
      if (names.length === 0) fail(d.pos, '@overlay-remove needs a name');
      return names.map((name) => ({ name, where: d.where }));
    });

  // Directives before a statement that are not removals belong to it.
  const modeOf = (ds: Directive[], allowed: string[], what: string): { mode: Mode; after?: string } => {
    let mode: Mode = 'any';
    let after: string | undefined;
    for (const d of ds) {
      if (d.name === 'remove') continue;
      if (!allowed.includes(d.name)) fail(d.pos, `@overlay-${d.name} does not apply to ${what}`);
      if (d.name === 'after') {
        if (!/^[\w$]+$/.test(d.arg)) fail(d.pos, '@overlay-after needs one top-level name');
        after = d.arg;
      } else {
        if (d.arg) fail(d.pos, `@overlay-${d.name} takes no argument`);
        mode = d.name as Mode;
      }
    }
    return { mode, after };
  };

  for (const stmt of sf.statements) {
    const ds = readDirectives(stmt.pos);
    out.removals.push(...removalsOf(ds, (s) => s.trim()));
    const at = stmt.getStart(sf);
    const exported = hasModifier(stmt, ts.SyntaxKind.ExportKeyword);
    if (hasModifier(stmt, ts.SyntaxKind.DefaultKeyword)) fail(at, '`export default` has no CommonJS counterpart here; use a named export');

    if (isTypeOnlyStatement(stmt) || ts.isEmptyStatement(stmt)) {
      modeOf(ds, [], 'type-only declarations');
      continue;
    }
    if (ts.isImportDeclaration(stmt)) {
      modeOf(ds, [], 'imports');
      const module = (stmt.moduleSpecifier as ts.StringLiteral).text;
      const clause = stmt.importClause;
      if (!clause) fail(at, `side-effect import '${module}' is not supported; import a name`);
      const item: ImportItem = { module, specifiers: [], where: where(at) };
      if (clause!.name) item.whole = clause!.name.text;
      const bindings = clause!.namedBindings;
      if (bindings && ts.isNamespaceImport(bindings)) {
        if (item.whole) fail(at, 'import either a default or a namespace, not both');
        item.whole = bindings.name.text;
      } else if (bindings) {
        for (const spec of bindings.elements) {
          if (spec.isTypeOnly) continue;
          item.specifiers.push({ imported: (spec.propertyName ?? spec.name).text, local: spec.name.text });
        }
      }
      if (item.whole || item.specifiers.length) out.imports.push(item);
      continue;
    }
    if (ts.isExportDeclaration(stmt)) {
      modeOf(ds, [], 'exports');
      if (stmt.moduleSpecifier) fail(at, 're-exports (`export … from`) are not supported; import, then export');
      const clause = stmt.exportClause;
      if (!clause || !ts.isNamedExports(clause)) fail(at, 'only `export { a, b }` lists are supported');
      const names: string[] = [];
      for (const spec of (clause as ts.NamedExports).elements) {
        if (spec.isTypeOnly) continue;
        if (spec.propertyName) fail(at, '`export { a as b }` is not supported: module.exports keys are the names');
        names.push(spec.name.text);
      }
      if (names.length) out.exports.push({ names, where: where(at) });
      continue;
    }
    if (ts.isExportAssignment(stmt)) fail(at, '`export =`/`export default` is not supported; use named exports');
    if (ts.isVariableStatement(stmt)) {
      const list = stmt.declarationList;
      if (!(list.flags & (ts.NodeFlags.Const | ts.NodeFlags.Let))) fail(at, 'use const or let (Node lib code has no var)');
      if (list.declarations.length !== 1) fail(at, 'declare one name per statement, so each can be replaced or removed on its own');
      const decl = list.declarations[0];
      const source = bindingSource(decl.initializer, sf);
      if (ts.isObjectBindingPattern(decl.name)) {
        if (!source || !(list.flags & ts.NodeFlags.Const)) {
          fail(at, 'top-level destructuring is only for `const { … } = primordials` or `= internalBinding(\'…\')`; use import for modules');
        }
        if (exported) fail(at, 'destructured bindings cannot be exported');
        modeOf(ds, [], 'destructurings');
        const entries = decl.name.elements.map((el) => {
          if (el.dotDotDotToken || el.initializer || !ts.isIdentifier(el.name) ||
              (el.propertyName && !ts.isIdentifier(el.propertyName))) {
            return fail(el.getStart(sf), 'only plain `name` or `name: alias` entries are supported here');
          }
          const local = (el.name as ts.Identifier).text;
          return { prop: el.propertyName ? (el.propertyName as ts.Identifier).text : local, local };
        });
        out.bindings.push({ source: source!, entries, where: where(at) });
        continue;
      }
      if (!ts.isIdentifier(decl.name)) fail(at, 'array destructuring at top level is not supported');
      out.decls.push({ kind: 'variable', name: (decl.name as ts.Identifier).text, node: stmt, exported, ...modeOf(ds, ['add', 'replace', 'after'], 'a const/let'), where: where(at), members: [], memberRemovals: [] });
      continue;
    }
    if (ts.isFunctionDeclaration(stmt)) {
      if (!stmt.name) fail(at, 'a top-level function needs a name');
      out.decls.push({ kind: 'function', name: stmt.name!.text, node: stmt, exported, ...modeOf(ds, ['add', 'replace', 'after'], 'a function'), where: where(at), members: [], memberRemovals: [] });
      continue;
    }
    if (ts.isClassDeclaration(stmt)) {
      if (!stmt.name) fail(at, 'a top-level class needs a name');
      if (hasModifier(stmt, ts.SyntaxKind.AbstractKeyword)) fail(at, 'abstract classes are not supported');
      const item: DeclItem = { kind: 'class', name: stmt.name!.text, node: stmt, exported, ...modeOf(ds, ['add', 'replace', 'after'], 'a class'), where: where(at), members: [], memberRemovals: [] };
      if (ts.getDecorators(stmt)?.length) fail(at, 'decorators are not supported');
      const seen = new Set<string>();
      for (const member of stmt.members) {
        const mds = readDirectives(member.pos);
        item.memberRemovals.push(...removalsOf(mds, normalizeKey));
        const mAt = member.getStart(sf);
        if (isTypeOnlyMember(member)) {
          modeOf(mds, [], 'type-only members');
          continue;
        }
        if (ts.isClassStaticBlockDeclaration(member)) fail(mAt, 'static blocks cannot be merged; use a static method or a top-level statement in the base');
        if (ts.isConstructorDeclaration(member) && member.parameters.some((p) => ts.getModifiers(p)?.length)) {
          fail(mAt, 'parameter properties are not erasable syntax');
        }
        const key = memberKey(member, sf);
        if (!key) fail(mAt, 'this class member has no name to merge by');
        if (seen.has(key!)) fail(mAt, `class ${item.name} declares '${key}' twice`);
        seen.add(key!);
        const { mode } = modeOf(mds, ['add'], 'class members (members replace by default)');
        item.members.push({ key: key!, node: member, mode: mode === 'add' ? 'add' : 'replace', where: where(mAt) });
      }
      const tail = readDirectives(stmt.members.end);
      item.memberRemovals.push(...removalsOf(tail, normalizeKey));
      modeOf(tail, [], 'the end of a class body');
      out.decls.push(item);
      continue;
    }
    if (ts.isEnumDeclaration(stmt) || ts.isModuleDeclaration(stmt)) fail(at, 'enums and namespaces are not erasable syntax');
    if (ts.isExpressionStatement(stmt) && ts.isStringLiteral(stmt.expression) && stmt.expression.text === 'use strict') continue;
    fail(at, `a layer holds declarations only (found a ${ts.SyntaxKind[stmt.kind]}); statements have no name to replace by`);
  }
  const eof = readDirectives(sf.endOfFileToken.pos);
  out.removals.push(...removalsOf(eof, (s) => s.trim()));
  modeOf(eof, [], 'the end of the file');

  // A directive anywhere else (inside a function…) would be silently ignored.
  const lines = text.split('\n');
  let offset = 0;
  for (const line of lines) {
    const at = offset + line.search(/\S/);
    if (/^\s*\/\/\s*@overlay-/.test(line) && !out.directiveRanges.some((r) => r.pos === at)) {
      fail(at, 'overlay directives belong at top level or directly in a class body');
    }
    offset += line.length + 1;
  }
  const names = new Set<string>();
  for (const d of out.decls) {
    if (names.has(d.name)) fail(d.node.getStart(sf), `'${d.name}' is declared twice in this layer file`);
    names.add(d.name);
  }
  return out;
}
