// Rewrites idiomatic use of JS builtins into primordials, driven by the type
// checker: a call is rewritten only when TypeScript resolves the method to
// its declaration in the ES lib (so `queue.push()` on the project's own
// Queue class stays, `arr.push()` on an array becomes ArrayPrototypePush).
// A receiver TypeScript cannot type is left as written and reported.
import type { Edit } from './edits.ts';
import type { Note, Where } from './errors.ts';
import { isReference, ts } from './ts.ts';

/** ES lib interface → primordial prefix for its instance members. */
const INSTANCE: Record<string, string> = {
  Array: 'ArrayPrototype', ReadonlyArray: 'ArrayPrototype',
  Promise: 'PromisePrototype',
  Map: 'MapPrototype', ReadonlyMap: 'MapPrototype',
  Set: 'SetPrototype', ReadonlySet: 'SetPrototype',
  WeakMap: 'WeakMapPrototype', WeakSet: 'WeakSetPrototype',
  String: 'StringPrototype', Number: 'NumberPrototype', Boolean: 'BooleanPrototype', BigInt: 'BigIntPrototype',
  Function: 'FunctionPrototype', CallableFunction: 'FunctionPrototype', NewableFunction: 'FunctionPrototype',
  ArrayBuffer: 'ArrayBufferPrototype', DataView: 'DataViewPrototype',
  RegExp: 'RegExpPrototype', Symbol: 'SymbolPrototype', Date: 'DatePrototype', Object: 'ObjectPrototype',
};
for (const t of ['Int8Array', 'Uint8Array', 'Uint8ClampedArray', 'Int16Array', 'Uint16Array', 'Int32Array', 'Uint32Array',
  'Float16Array', 'Float32Array', 'Float64Array', 'BigInt64Array', 'BigUint64Array']) INSTANCE[t] = 'TypedArrayPrototype';

/** ES lib interface/namespace of a global → primordial prefix for its statics. */
const STATIC: Record<string, string> = {
  ArrayConstructor: 'Array', PromiseConstructor: 'Promise', ObjectConstructor: 'Object', NumberConstructor: 'Number',
  StringConstructor: 'String', SymbolConstructor: 'Symbol', ArrayBufferConstructor: 'ArrayBuffer', DateConstructor: 'Date',
  MapConstructor: 'Map', BigIntConstructor: 'BigInt', Math: 'Math', JSON: 'JSON', Reflect: 'Reflect', Atomics: 'Atomics',
};

/** Lib types that could be more than one builtin: no primordial fits them all. */
const AMBIGUOUS = new Set(['ArrayLike', 'ArrayBufferView', 'ArrayBufferLike', 'Iterable', 'Iterator', 'IterableIterator',
  'AsyncIterable', 'AsyncIterator', 'PromiseLike', 'Generator', 'AsyncGenerator', 'TypedArray']);

/** Object.prototype methods worth rewriting on any object (others, like toString, may be overridden). */
const OBJECT_PROTOTYPE_OK = new Set(['hasOwnProperty', 'isPrototypeOf', 'propertyIsEnumerable']);

/** `new X()` → `new SafeX()`: the safe subclasses don't consult mutable prototypes. */
export const SAFE_CONSTRUCTORS: Record<string, string> = {
  Map: 'SafeMap', Set: 'SafeSet', WeakMap: 'SafeWeakMap', WeakSet: 'SafeWeakSet', WeakRef: 'SafeWeakRef',
  FinalizationRegistry: 'SafeFinalizationRegistry',
};

/** Primordials Node's lint rejects, and what to write instead. */
const SPECIAL: Record<string, { name: string; insert?: string } | { report: string }> = {
  PromiseAll: { name: 'SafePromiseAll' },
  PromiseAllSettled: { name: 'SafePromiseAllSettled' },
  PromiseAny: { name: 'SafePromiseAny' },
  PromiseRace: { name: 'SafePromiseRace' },
  // catch() and finally() look up `then` on the promise.
  PromisePrototypeCatch: { name: 'PromisePrototypeThen', insert: 'undefined' },
  PromisePrototypeFinally: { name: 'SafePromisePrototypeFinally' },
  RegExpPrototypeTest: { report: 'RegExp.prototype.test looks up `exec`; write RegExpPrototypeExec(re, s) !== null' },
  StringPrototypeMatch: { report: 'String.prototype.match looks up Symbol.match; use RegExpPrototypeExec' },
  StringPrototypeMatchAll: { report: 'String.prototype.matchAll looks up Symbol.matchAll; use RegExpPrototypeExec in a loop' },
  StringPrototypeSearch: { report: 'String.prototype.search looks up Symbol.search; use SafeStringPrototypeSearch' },
};

/** Global functions that equal a primordial (parseInt === Number.parseInt). */
const GLOBAL_FUNCTIONS: Record<string, string | { report: string }> = {
  parseInt: 'NumberParseInt',
  parseFloat: 'NumberParseFloat',
  isNaN: { report: 'global isNaN coerces; write NumberIsNaN (no coercion) if that is what you mean' },
  isFinite: { report: 'global isFinite coerces; write NumberIsFinite (no coercion) if that is what you mean' },
};

const ucFirst = (s: string) => s[0].toUpperCase() + s.slice(1);

export interface RewriteResult {
  edits: Edit[];
  /** Primordials the rewritten code uses (for the module's header). */
  needed: Set<string>;
  notes: Note[];
}

export interface RewriteContext {
  program: ts.Program;
  checker: ts.TypeChecker;
  /** Names the pinned binary's primordials object has. */
  names: Set<string>;
  whereOf: (pos: number) => Where;
}

/** Method names of builtin prototypes, to tell a suspicious untyped call from an ordinary one. */
function builtinMethodNames(names: Set<string>): Set<string> {
  const out = new Set<string>();
  for (const n of names) {
    const m = /^(?:Array|Promise|Map|Set|WeakMap|WeakSet|String|Function|TypedArray|ArrayBuffer|DataView|RegExp)Prototype([A-Z]\w*)$/.exec(n);
    if (m && !m[1].startsWith('Get') && !m[1].startsWith('Symbol')) out.add(m[1][0].toLowerCase() + m[1].slice(1));
  }
  return out;
}

function depth(node: ts.Node): number {
  let d = 0;
  for (let p = node.parent; p; p = p.parent) d++;
  return d;
}

function isWriteTarget(node: ts.Node): boolean {
  const p = node.parent;
  if (ts.isBinaryExpression(p) && p.left === node && p.operatorToken.kind >= ts.SyntaxKind.FirstAssignment &&
      p.operatorToken.kind <= ts.SyntaxKind.LastAssignment) return true;
  if ((ts.isPrefixUnaryExpression(p) || ts.isPostfixUnaryExpression(p)) &&
      (p.operator === ts.SyntaxKind.PlusPlusToken || p.operator === ts.SyntaxKind.MinusMinusToken)) return true;
  return ts.isDeleteExpression(p);
}

export function rewritePrimordials(sf: ts.SourceFile, roots: readonly ts.Node[], ctx: RewriteContext): RewriteResult {
  const { program, checker, names } = ctx;
  const text = sf.text;
  const edits: Edit[] = [];
  const needed = new Set<string>();
  const notes: Note[] = [];
  const known = builtinMethodNames(names);
  const consumed = new Set<ts.Node>();
  const note = (node: ts.Node, message: string) => notes.push({ where: ctx.whereOf(node.getStart(sf)), message });
  const isLib = (d: ts.Declaration) => program.isSourceFileDefaultLibrary(d.getSourceFile());

  /** The lib container names (interface or namespace) a property resolves to, or undefined if any is not from the lib. */
  const containers = (sym: ts.Symbol | undefined): string[] | undefined => {
    const decls = sym?.declarations;
    if (!decls?.length || !decls.every(isLib)) return undefined;
    return [...new Set(decls.map((d) => {
      const p = d.parent;
      if (ts.isInterfaceDeclaration(p)) return p.name.text;
      if (ts.isModuleBlock(p)) return (p.parent.name as ts.Identifier).text;
      return '?';
    }))];
  };
  /** Whether `expr` is the global itself (Object, Promise…), not some local with its type. */
  const isLibGlobal = (expr: ts.Expression): expr is ts.Identifier => {
    if (!ts.isIdentifier(expr)) return false;
    const decls = checker.getSymbolAtLocation(expr)?.declarations;
    return !!decls?.length && decls.every(isLib);
  };
  const familyOf = (cs: string[], table: Record<string, string>) => {
    const fams = new Set(cs.map((c) => table[c]));
    return fams.size === 1 ? [...fams][0] : undefined;
  };
  const use = (name: string) => needed.add(name);

  const rewriteCall = (call: ts.CallExpression, access: ts.PropertyAccessExpression): boolean => {
    const method = access.name.text;
    const recv = access.expression;
    if (recv.kind === ts.SyntaxKind.SuperKeyword) return false;
    const sym = checker.getSymbolAtLocation(access.name);
    const cs = containers(sym);
    if (!cs) {
      const t = checker.getTypeAtLocation(recv);
      if (known.has(method) && (t.flags & (ts.TypeFlags.Any | ts.TypeFlags.Unknown))) {
        note(call, `left \`${recv.getText(sf)}.${method}(…)\` as written: the receiver's type is ${checker.typeToString(t)}; type it to get a primordial`);
      }
      return false;
    }
    let name: string | undefined;
    const staticFam = isLibGlobal(recv) ? familyOf(cs, STATIC) : undefined;
    if (staticFam) name = `${staticFam}${ucFirst(method)}`;
    else {
      const fam = familyOf(cs, INSTANCE);
      if (!fam) {
        if (cs.some((c) => AMBIGUOUS.has(c)) || cs.length > 1) {
          note(call, `left \`.${method}(…)\` as written: ${cs.join(' | ')} has no single primordial`);
        }
        return false;
      }
      if (fam === 'ObjectPrototype' && !OBJECT_PROTOTYPE_OK.has(method)) return false;
      name = `${fam}${ucFirst(method)}`;
    }
    let insert: string | undefined;
    const special = SPECIAL[name];
    if (special && 'report' in special) {
      note(call, special.report);
      return false;
    }
    if (special) {
      insert = special.insert;
      name = special.name;
    }
    if (!names.has(name)) {
      note(call, `left \`.${method}(…)\` as written: this Node has no primordial ${name}`);
      return false;
    }
    if (access.questionDotToken || call.questionDotToken) {
      note(call, `left optional call \`${method}\` as written: a primordial call would change its short-circuit`);
      return false;
    }
    if (staticFam) {
      consumed.add(recv);
      edits.push({ start: access.getStart(sf), end: access.end, text: name });
    } else {
      const seamStart = recv.end;
      const seamEnd = call.arguments.pos;
      if (/\/[/*]/.test(text.slice(seamStart, seamEnd))) {
        note(call, `left \`.${method}(…)\` as written: a comment sits between the receiver and the call`);
        return false;
      }
      // `recv.m(a)` → `Name(recv, a)`: open before the receiver, turn `.m(` into `, `.
      const seam = call.arguments.length ? `, ${insert ? `${insert}, ` : ''}` : insert ? `, ${insert}` : '';
      edits.push({ start: recv.getStart(sf), end: recv.getStart(sf), text: `${name}(`, order: depth(call) });
      edits.push({ start: seamStart, end: seamEnd, text: seam });
    }
    use(name);
    return true;
  };

  const rewriteProperty = (access: ts.PropertyAccessExpression): boolean => {
    if (isWriteTarget(access) || access.questionDotToken) return false;
    const cs = containers(checker.getSymbolAtLocation(access.name));
    if (!cs) return false;
    const prop = access.name.text;
    const recv = access.expression;
    const staticFam = isLibGlobal(recv) ? familyOf(cs, STATIC) : undefined;
    if (staticFam) {
      const name = `${staticFam}${ucFirst(prop)}`;
      if (!names.has(name)) return false;
      consumed.add(recv);
      edits.push({ start: access.getStart(sf), end: access.end, text: name });
      use(name);
      return true;
    }
    const fam = familyOf(cs, INSTANCE);
    if (!fam || fam === 'ObjectPrototype') return false;
    const name = `${fam}Get${ucFirst(prop)}`;
    if (!names.has(name)) return false;
    edits.push({ start: recv.getStart(sf), end: recv.getStart(sf), text: `${name}(`, order: depth(access) });
    edits.push({ start: recv.end, end: access.end, text: ')' });
    use(name);
    return true;
  };

  const visitIdentifier = (id: ts.Identifier) => {
    if (consumed.has(id) || !isReference(id)) return;
    const sym = checker.getSymbolAtLocation(id);
    const decls = sym?.declarations;
    if (!decls?.length) return;
    // A name the layer destructured from primordials itself.
    const d0 = decls[0];
    if (ts.isBindingElement(d0) && ts.isVariableDeclaration(d0.parent.parent) &&
        d0.parent.parent.initializer && ts.isIdentifier(d0.parent.parent.initializer) &&
        d0.parent.parent.initializer.text === 'primordials') {
      use(((d0.propertyName ?? d0.name) as ts.Identifier).text);
      return;
    }
    if (!decls.every(isLib)) return;
    const name = id.text;
    if (ts.isNewExpression(id.parent) && id.parent.expression === id && SAFE_CONSTRUCTORS[name]) {
      edits.push({ start: id.getStart(sf), end: id.end, text: SAFE_CONSTRUCTORS[name] });
      use(SAFE_CONSTRUCTORS[name]);
      return;
    }
    const fn = GLOBAL_FUNCTIONS[name];
    if (typeof fn === 'string') {
      edits.push({ start: id.getStart(sf), end: id.end, text: fn });
      use(fn);
      return;
    }
    if (fn) {
      note(id, fn.report);
      return;
    }
    if (names.has(name)) use(name);
    else if (name !== 'undefined' && name !== 'NaN' && name !== 'Infinity') {
      note(id, `global ${name} is not a primordial; import it from the Node module that provides it`);
    }
  };

  const visit = (node: ts.Node): void => {
    if (ts.isTypeNode(node) && !ts.isExpressionWithTypeArguments(node)) return;
    if (ts.isCallExpression(node) && ts.isPropertyAccessExpression(node.expression)) {
      // The callee's own property must not be rewritten as a getter.
      rewriteCall(node, node.expression);
      visit(node.expression.expression);
      node.arguments.forEach(visit);
      return;
    }
    if (ts.isPropertyAccessExpression(node)) {
      rewriteProperty(node);
      visit(node.expression);
      return;
    }
    if (ts.isIdentifier(node)) {
      visitIdentifier(node);
      return;
    }
    ts.forEachChild(node, visit);
  };
  for (const root of roots) visit(root);
  return { edits, needed, notes };
}
