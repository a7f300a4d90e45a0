// Per-layer type views. Layer k is type-checked against the declarations of
// the code beneath it plus its own, never against what later layers add:
//
//   - Hand-written declarations (tools/overlay/types/, overridden file by
//     file by <overlay root>/types/) describe the base. A declaration that a
//     layer adds or changes names it in its comment, `@layer <slug>` (the
//     layer folder without its number, so a tag survives renumbering and
//     means nothing in a series without that layer): it exists in that
//     layer's view and later ones only, and within one interface, class or
//     module it replaces same-named declarations of earlier layers. One that
//     a layer removes carries `@removed-by <slug>`.
//   - Whatever the JS beneath the layer, or the layer's own files, have at
//     top level and no hand-written declaration names is declared from
//     that code (untyped, with its parameters): a function upstream adds,
//     or one the layer adds to a module and imports from another, is
//     importable at once.
//   - checkViews() holds the hand-written part to the JS: a declared
//     function, constant, class or method the code of that state lacks, a
//     function with another arity, or a record field no module mentions is
//     an error, not a silent pass.
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { MODULE_PREFIX, type Modules } from '../lib/libdir.ts';
import { ROOT } from '../lib/paths.ts';
import { applyEdits, type Edit } from './edits.ts';
import { OverlayError } from './errors.ts';
import { lineRemoval } from './lines.ts';
import { sourceOf } from './module-index.ts';
import { isTypeOnlyStatement, memberKey } from './parse.ts';
import { attachedStart, lineOf, parseSource, ts } from './ts.ts';

export const SHARED_TYPES = join(ROOT, 'tools', 'overlay', 'types');
const LAYER_TAG = /@layer\s+([a-z0-9][a-z0-9-]*)/;
const REMOVED_TAG = /@removed-by\s+([a-z0-9][a-z0-9-]*)/;

/** Slug → position of each layer of a series (tags name layers by slug). */
export type LayerOrder = Map<string, number>;

export function layerOrder(layers: { index: number; name: string }[]): LayerOrder {
  return new Map(layers.map((l) => [l.name.replace(/^\d+-/, ''), l.index]));
}

/** Relative path → file, the overlay root's own types/ winning over the shared ones. */
export function typeSources(overlayRoot: string | undefined): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (root: string, dir: string) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, e.name);
      if (e.isDirectory()) walk(root, path);
      else if (e.name.endsWith('.d.ts')) out.set(relative(root, path), path);
    }
  };
  walk(SHARED_TYPES, SHARED_TYPES);
  const own = overlayRoot && join(overlayRoot, 'types');
  if (own && existsSync(own) && statSync(own).isDirectory()) walk(own, own);
  return out;
}

/** A declaration the tag filter keeps or drops as a whole: a statement or a member. */
interface Unit {
  node: ts.Node;
  /** Same-named units of one container replace each other by tag (functions, variables, members). */
  key?: string;
  /** The layer that adds it (0: the base has it). */
  tag: number;
  /** The layer that removes it (Infinity: none). */
  until: number;
}

function unit(sf: ts.SourceFile, order: LayerOrder, node: ts.Node, key: string | undefined): Unit {
  const comments = sf.text.slice(attachedStart(sf, node), node.getStart(sf));
  const added = LAYER_TAG.exec(comments);
  const removed = REMOVED_TAG.exec(comments);
  // A layer this series does not have never adds, never removes.
  return {
    node, key,
    tag: added ? order.get(added[1]) ?? Infinity : 0,
    until: removed ? order.get(removed[1]) ?? Infinity : Infinity,
  };
}

function statementKey(stmt: ts.Statement): string | undefined {
  if (ts.isFunctionDeclaration(stmt) || ts.isTypeAliasDeclaration(stmt)) return stmt.name?.text;
  if (ts.isVariableStatement(stmt)) {
    const d = stmt.declarationList.declarations;
    return d.length === 1 && ts.isIdentifier(d[0].name) ? d[0].name.text : undefined;
  }
  return undefined;
}

/** The units of each container (file, module block, interface, class), recursively. */
function containers(sf: ts.SourceFile, order: LayerOrder): Unit[][] {
  const out: Unit[][] = [];
  const visitStatements = (stmts: readonly ts.Statement[]) => {
    out.push(stmts.map((s) => unit(sf, order, s, statementKey(s))));
    for (const s of stmts) {
      if (ts.isModuleDeclaration(s) && s.body && ts.isModuleBlock(s.body)) visitStatements(s.body.statements);
      if (ts.isInterfaceDeclaration(s) || ts.isClassDeclaration(s)) {
        const members = s.members as readonly (ts.TypeElement | ts.ClassElement)[];
        out.push(members.map((m) => unit(sf, order, m, m.name ? memberKey(m as ts.ClassElement, sf) : undefined)));
      }
    }
  };
  visitStatements(sf.statements);
  return out;
}

/** The units view k drops: added later than k, removed by k, or replaced by a same-named unit with a higher tag ≤ k. */
function droppedUnits(sf: ts.SourceFile, order: LayerOrder, k: number): ts.Node[] {
  const dropped: ts.Node[] = [];
  for (const units of containers(sf, order)) {
    const live = units.filter((u) => u.tag <= k && k < u.until);
    const best = new Map<string, number>();
    for (const u of live) if (u.key !== undefined) best.set(u.key, Math.max(best.get(u.key) ?? 0, u.tag));
    for (const u of units) {
      if (!live.includes(u) || (u.key !== undefined && u.tag < best.get(u.key)!)) dropped.push(u.node);
    }
  }
  return dropped;
}

/** A declaration file as view k sees it (text outside dropped units unchanged). */
export function filterDeclarations(text: string, fileName: string, order: LayerOrder, k: number): string {
  const sf = parseSource(fileName, text, 'ts');
  const nodes = droppedUnits(sf, order, k);
  // A dropped container takes its members with it: only the outermost edits count.
  const outer = nodes.filter((n) => !nodes.some((o) => o !== n && o.pos <= n.pos && n.end <= o.end));
  const edits: Edit[] = outer.map((n) => {
    const span = lineRemoval(text, attachedStart(sf, n), n.end);
    return { start: span.start, end: span.end, text: '' };
  });
  return applyEdits(text, edits);
}

// What a lib module declares at top level, read from its JS.
interface JsFunction {
  params: { name: string; optional: boolean; rest: boolean }[];
}

export interface JsModule {
  functions: Map<string, JsFunction>;
  classes: Map<string, Map<string, JsFunction | undefined>>;
  /** Other top-level constants and variables of its own. */
  bindings: Set<string>;
  /** Names it takes from elsewhere (primordials, require, internalBinding). */
  imported: Set<string>;
}

function jsFunction(fn: ts.SignatureDeclarationBase): JsFunction {
  let optional = false;
  return {
    params: fn.parameters.map((p, i) => {
      optional ||= p.initializer !== undefined || p.questionToken !== undefined;
      return { name: ts.isIdentifier(p.name) ? p.name.text : `arg${i}`, optional, rest: p.dotDotDotToken !== undefined };
    }),
  };
}

/** What a lib module (JS) or a layer file (TS: type-only statements skipped) declares at top level. */
export function readJsModule(id: string, text: string, kind: 'js' | 'ts' = 'js'): JsModule {
  const sf = parseSource(`${id}.${kind}`, text, kind);
  const mod: JsModule = { functions: new Map(), classes: new Map(), bindings: new Set(), imported: new Set() };
  const names = (n: ts.BindingName): string[] => (ts.isIdentifier(n) ? [n.text]
    : n.elements.flatMap((e) => (ts.isOmittedExpression(e) ? [] : names(e.name))));
  for (const stmt of sf.statements) {
    if (isTypeOnlyStatement(stmt) || ts.isImportDeclaration(stmt)) continue;
    if (ts.isFunctionDeclaration(stmt) && stmt.name) mod.functions.set(stmt.name.text, jsFunction(stmt));
    else if (ts.isClassDeclaration(stmt) && stmt.name) {
      const members = new Map<string, JsFunction | undefined>();
      for (const m of stmt.members) {
        const key = memberKey(m, sf);
        if (key) members.set(key, ts.isMethodDeclaration(m) || ts.isConstructorDeclaration(m) ? jsFunction(m) : undefined);
      }
      mod.classes.set(stmt.name.text, members);
    } else if (ts.isVariableStatement(stmt)) {
      for (const d of stmt.declarationList.declarations) {
        const own = ts.isIdentifier(d.name) && sourceOf(d.initializer) === undefined;
        for (const n of names(d.name)) (own ? mod.bindings : mod.imported).add(n);
      }
    }
  }
  return mod;
}

/** Every identifier a set of modules uses as a property name or key (for record fields). */
function propertyNames(modules: Modules): Set<string> {
  const out = new Set<string>();
  for (const [id, text] of modules) {
    const visit = (node: ts.Node): void => {
      if ((ts.isPropertyAccessExpression(node) || ts.isPropertyAssignment(node) || ts.isMethodDeclaration(node) ||
           ts.isPropertyDeclaration(node) || ts.isGetAccessorDeclaration(node) || ts.isSetAccessorDeclaration(node)) &&
          ts.isIdentifier(node.name)) out.add(node.name.text);
      if (ts.isShorthandPropertyAssignment(node)) out.add(node.name.text);
      if (ts.isBindingElement(node)) {
        const p = node.propertyName ?? node.name;
        if (ts.isIdentifier(p)) out.add(p.text);
      }
      ts.forEachChild(node, visit);
    };
    visit(parseSource(`${id}.js`, text, 'js'));
  }
  return out;
}

/** Names a declaration file declares: values (functions, variables, classes) and types. */
function declaredNames(sf: ts.SourceFile): { values: Set<string>; types: Set<string> } {
  const values = new Set<string>();
  const types = new Set<string>();
  for (const s of sf.statements) {
    if ((ts.isFunctionDeclaration(s) || ts.isClassDeclaration(s)) && s.name) values.add(s.name.text);
    if (ts.isClassDeclaration(s) && s.name) types.add(s.name.text);
    if (ts.isVariableStatement(s)) for (const d of s.declarationList.declarations) if (ts.isIdentifier(d.name)) values.add(d.name.text);
    if ((ts.isInterfaceDeclaration(s) || ts.isTypeAliasDeclaration(s)) && s.name) types.add(s.name.text);
  }
  return { values, types };
}

/** Untyped declarations for what `mods` have and the hand-written file does not declare. */
export function generatedDeclarations(mods: JsModule[], declared: { values: Set<string>; types: Set<string> }): string {
  const lines: string[] = [];
  const done = new Set<string>();
  const param = (p: JsFunction['params'][number]) => (p.rest ? `...${p.name}: any[]` : `${p.name}${p.optional ? '?' : ''}: any`);
  const fresh = (name: string) => !declared.values.has(name) && !done.has(name) && (done.add(name), true);
  for (const mod of mods) {
    for (const [name, fn] of mod.functions) if (fresh(name)) lines.push(`export function ${name}(${fn.params.map(param).join(', ')}): any;`);
    for (const name of mod.classes.keys()) {
      if (!declared.types.has(name) && fresh(name)) lines.push(`export class ${name} {\n  constructor(...args: any[]);\n  [key: string | symbol]: any;\n}`);
    }
    for (const name of mod.bindings) if (fresh(name)) lines.push(`export const ${name}: any;`);
  }
  if (lines.length === 0) return '';
  return `\n// Generated from the JS beneath this layer: what the declarations above do not name (untyped).\n${lines.join('\n')}\n`;
}

export interface View {
  dir: string;
  /** Files the program takes as roots (primordials-extra, globals). */
  roots: string[];
}

/**
 * Writes layer k's view to `dir`: every declaration file as of layer k, each
 * webstreams module's file completed from `beneath` (the JS layer k is
 * applied to) and from the layer's own files (`own`: module id → TS text).
 */
export function writeView(dir: string, sources: Map<string, string>, order: LayerOrder, k: number, beneath: Modules,
  own: Map<string, string> = new Map()): View {
  rmSync(dir, { recursive: true, force: true });
  const written = new Map<string, string>();
  for (const [rel, path] of sources) written.set(rel, filterDeclarations(readFileSync(path, 'utf8'), path, order, k));
  for (const [id, text] of beneath) {
    const rel = join('modules', `${id}.d.ts`);
    const hand = written.get(rel);
    const declared = hand === undefined ? { values: new Set<string>(), types: new Set<string>() } : declaredNames(parseSource(rel, hand, 'ts'));
    const layerText = own.get(id);
    const mods = [readJsModule(id, text), ...(layerText === undefined ? [] : [readJsModule(id, layerText, 'ts')])];
    const extra = generatedDeclarations(mods, declared);
    if (hand !== undefined || extra) written.set(rel, `${hand ?? `// ${id}: no hand-written declarations.\nexport {};\n`}${extra}`);
  }
  for (const [rel, text] of written) {
    mkdirSync(dirname(join(dir, rel)), { recursive: true });
    writeFileSync(join(dir, rel), text);
  }
  return viewAt(dir);
}

/** The view written to `dir`. */
export function viewAt(dir: string): View {
  return { dir, roots: ['primordials-extra.d.ts', 'globals.d.ts'].map((f) => join(dir, f)) };
}

function arityMismatch(declared: readonly ts.SignatureDeclarationBase[], js: JsFunction): string | undefined {
  const shape = (n: number, rest: boolean) => `${n} parameter${n === 1 ? '' : 's'}${rest ? ' (rest)' : ''}`;
  const jsRest = js.params.at(-1)?.rest ?? false;
  const ok = declared.some((d) => d.parameters.length === js.params.length &&
    (d.parameters.at(-1)?.dotDotDotToken !== undefined) === jsRest);
  if (ok) return undefined;
  return `declared with ${declared.map((d) => shape(d.parameters.length, d.parameters.at(-1)?.dotDotDotToken !== undefined)).join(' / ')}, ` +
    `the JS has ${shape(js.params.length, jsRest)}`;
}

/**
 * Problems of view k's hand-written webstreams declarations against the JS
 * of state k (`label` names the state in messages): each as `file:line: …`.
 */
export function checkView(sources: Map<string, string>, order: LayerOrder, k: number, state: Modules, label: string): string[] {
  const problems: string[] = [];
  let fields: Set<string> | undefined;
  for (const [rel, path] of sources) {
    const match = /^modules\/(internal\/webstreams\/[a-z0-9_]+)\.d\.ts$/.exec(rel.split('\\').join('/'));
    if (!match || !match[1].startsWith(MODULE_PREFIX)) continue;
    const id = match[1];
    const text = state.get(id);
    const where = (node: ts.Node) => `${relative(ROOT, path)}:${lineOf(sf, node.getStart(sf))}`;
    const sf = parseSource(path, filterDeclarations(readFileSync(path, 'utf8'), path, order, k), 'ts');
    if (text === undefined) {
      problems.push(`${relative(ROOT, path)}: ${label} has no module ${id}`);
      continue;
    }
    const js = readJsModule(id, text);
    const overloads = new Map<string, ts.FunctionDeclaration[]>();
    for (const s of sf.statements) {
      if (ts.isFunctionDeclaration(s) && s.name) overloads.set(s.name.text, [...(overloads.get(s.name.text) ?? []), s]);
    }
    for (const [name, decls] of overloads) {
      const fn = js.functions.get(name);
      if (fn) {
        const bad = arityMismatch(decls, fn);
        if (bad) problems.push(`${where(decls[0])}: function ${name} is ${bad} in ${label}`);
      } else if (!js.bindings.has(name) && !js.imported.has(name) && !js.classes.has(name)) {
        problems.push(`${where(decls[0])}: declares function ${name}, which ${label} does not have`);
      }
    }
    for (const s of sf.statements) {
      if (ts.isVariableStatement(s)) {
        for (const d of s.declarationList.declarations) {
          const name = d.name.getText(sf);
          if (!js.bindings.has(name) && !js.imported.has(name) && !js.functions.has(name) && !js.classes.has(name)) {
            problems.push(`${where(s)}: declares ${name}, which ${label} does not have`);
          }
        }
      } else if (ts.isClassDeclaration(s) && s.name) {
        const members = js.classes.get(s.name.text);
        if (!members) {
          problems.push(`${where(s)}: declares class ${s.name.text}, which ${label} does not have`);
          continue;
        }
        for (const m of s.members) {
          if (!(ts.isMethodDeclaration(m) || ts.isConstructorDeclaration(m)) || (m.name && ts.isComputedPropertyName(m.name))) continue;
          const key = memberKey(m, sf)!;
          // A class without a constructor of its own takes no arguments.
          if (key === 'constructor' && !members.has(key) && !s.heritageClauses && m.parameters.length === 0) continue;
          if (!members.has(key)) {
            problems.push(`${where(m)}: declares ${s.name.text}.${key}(), which ${label} does not have`);
            continue;
          }
          const fn = members.get(key);
          const bad = fn && arityMismatch([m], fn);
          if (bad) problems.push(`${where(m)}: ${s.name.text}.${key}() is ${bad} in ${label}`);
        }
      } else if (ts.isInterfaceDeclaration(s)) {
        fields ??= propertyNames(state);
        for (const m of s.members) {
          if (!m.name || !ts.isIdentifier(m.name)) continue;
          if (!fields.has(m.name.text)) {
            problems.push(`${where(m)}: ${s.name.text}.${m.name.text} is a field no module of ${label} mentions`);
          }
        }
      }
    }
  }
  return problems;
}

/**
 * Every state's view against its JS (`states[k]`: after layer k), each
 * problem once, at the first state that has it.
 */
export function checkViews(sources: Map<string, string>, order: LayerOrder, states: Modules[], label: (k: number) => string): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  states.forEach((state, k) => {
    for (const p of checkView(sources, order, k, state, label(k))) {
      // The same declaration in another state (its line may move as tagged lines come and go).
      const key = p.split(label(k)).join('').replace(/:\d+: /, ': ');
      if (!seen.has(key)) out.push(p);
      seen.add(key);
    }
  });
  return out;
}

/** Throws one error listing every problem of every state's view. */
export function assertViews(problems: string[]): void {
  if (problems.length === 0) return;
  throw new OverlayError(`the type declarations do not match the code they describe:\n  ${problems.join('\n  ')}\n` +
    'declare what a layer adds or changes with `@layer <slug>` in its comment, and follow the base where it changed');
}
