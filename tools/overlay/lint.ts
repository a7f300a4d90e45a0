// A lint for generated lib JS in Node's style. Node's own ESLint rules
// (tools/eslint-rules) are not in the fixtures (Debian strips them), so this
// re-implements the checks that matter for lib code, on the TypeScript AST:
//   prefer-primordials   listed globals (Array, Promise, Map→SafeMap, …) only via `const {…} = primordials`
//   prototype-pollution  Node's avoid-prototype-pollution (tools/overlay/lint-pollution.ts)
//   sorted-primordials   the primordials header is sorted
//   non-ascii-character  ASCII only (non-ASCII text grows the binary)
//   no-array-destructuring  object destructuring: an array pattern iterates, through user-mutable methods
//   alphabetize-errors   the error codes taken from internal/errors are sorted
//   lowercase-name-for-primitive  new ERR_INVALID_ARG_TYPE(name, 'number', …), not 'Number'
//   and Node's own rules for every file (tools/overlay/lint-root.ts: prefer-optional-chaining, prefer-proto,
//   no-duplicate-requires, no-unescaped-regexp-dot), and, run by ESLint itself, the stock rules Node's root
//   and lib/ configs enable, their no-restricted-syntax and no-restricted-globals among them
//   (tools/overlay/eslint.ts)
// and one rule of this project's own, not Node's:
//   old-generation-closure  no function literal assigned straight to a property inside a function: V8's parser
//                           pretenures it, so the closure (and what its context holds, a whole stream) outlives
//                           young-generation collections until the next full one
import { eslintFindings } from './eslint.ts';
import { pollutionFindings } from './lint-pollution.ts';
import { rootRuleFindings } from './lint-root.ts';
import { indexModule, patternNames } from './module-index.ts';
import { isReference, lineOf, ts } from './ts.ts';

/** Globals Node's lib config routes through primordials (value: the primordial to use instead, if renamed). */
const PRIMORDIAL_GLOBALS: Record<string, string> = {
  AggregateError: '', Array: '', ArrayBuffer: '', Atomics: '', BigInt: '', BigInt64Array: '', BigUint64Array: '',
  Boolean: '', DataView: '', Date: '', decodeURI: '', decodeURIComponent: '', encodeURI: '', encodeURIComponent: '',
  Error: '', EvalError: '', FinalizationRegistry: 'SafeFinalizationRegistry', Float32Array: '', Float64Array: '',
  Function: '', Int16Array: '', Int32Array: '', Int8Array: '', isFinite: 'NumberIsFinite', isNaN: 'NumberIsNaN',
  JSON: '', Map: 'SafeMap', Math: '', Number: '', Object: '', parseFloat: 'NumberParseFloat', parseInt: 'NumberParseInt',
  Proxy: '', Promise: '', RangeError: '', ReferenceError: '', Reflect: '', RegExp: '', Set: 'SafeSet', String: '',
  Symbol: '', SyntaxError: '', TypeError: '', Uint16Array: '', Uint32Array: '', Uint8Array: '', Uint8ClampedArray: '',
  URIError: '', WeakMap: 'SafeWeakMap', WeakRef: 'SafeWeakRef', WeakSet: 'SafeWeakSet', globalThis: '',
};

export interface LintFinding {
  rule: string;
  line: number;
  message: string;
  /** old-generation-closure: `<enclosing function> <assigned expression>`, to tell a base site from a new one. */
  site?: string;
}

const ASSIGNMENTS = new Set([ts.SyntaxKind.EqualsToken, ts.SyntaxKind.QuestionQuestionEqualsToken,
  ts.SyntaxKind.BarBarEqualsToken, ts.SyntaxKind.AmpersandAmpersandEqualsToken]);

/** A function literal, parenthesized or not: V8's parser keeps no node for the parentheses. */
function isFunctionLiteral(node: ts.Expression): boolean {
  while (ts.isParenthesizedExpression(node)) node = node.expression;
  return ts.isArrowFunction(node) || ts.isFunctionExpression(node);
}

/** Function literals assigned straight to a property inside a function (V8 allocates them in the old generation). */
function oldGenerationClosures(sf: ts.SourceFile): LintFinding[] {
  const out: LintFinding[] = [];
  const visit = (node: ts.Node, fn: string | undefined): void => {
    if (fn !== undefined && ts.isBinaryExpression(node) && ASSIGNMENTS.has(node.operatorToken.kind) &&
        (ts.isPropertyAccessExpression(node.left) || ts.isElementAccessExpression(node.left)) &&
        isFunctionLiteral(node.right)) {
      const target = node.left.getText(sf);
      out.push({
        rule: 'old-generation-closure',
        line: lineOf(sf, node.getStart(sf)),
        message: `V8 allocates a function literal assigned to ${target} in the old generation; bind it to a constant before storing it (in a function that runs per chunk, create it in a function of its own, as patch 19 does)`,
        site: `${fn} ${target}`,
      });
    }
    const name = ts.isFunctionLike(node) ? (node.name?.getText(sf) ?? fn ?? '<anonymous>') : fn;
    ts.forEachChild(node, (child) => visit(child, name));
  };
  visit(sf, undefined);
  return out;
}

/** Every name declared anywhere in the file (scope-blind: a local shadowing a global counts as declared). */
function declaredNames(sf: ts.SourceFile): Set<string> {
  const out = new Set<string>();
  const visit = (node: ts.Node): void => {
    if ((ts.isVariableDeclaration(node) || ts.isParameter(node) || ts.isBindingElement(node)) && node.name) {
      for (const n of patternNames(node.name)) out.add(n);
    } else if ((ts.isFunctionDeclaration(node) || ts.isClassDeclaration(node) || ts.isFunctionExpression(node) ||
                ts.isClassExpression(node)) && node.name) {
      out.add(node.name.text);
    } else if (ts.isCatchClause(node) && node.variableDeclaration) {
      for (const n of patternNames(node.variableDeclaration.name)) out.add(n);
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return out;
}

/** The primitive types ERR_INVALID_ARG_TYPE names in lowercase (Node's lowercase-name-for-primitive). */
const PRIMITIVES = new Set(['number', 'string', 'boolean', 'null', 'undefined']);

/** Node's rules for lib/ beyond primordials: ASCII only, no array destructuring, sorted error codes, primitives' names. */
function libOnlyFindings(sf: ts.SourceFile, text: string): LintFinding[] {
  const findings: LintFinding[] = [];
  const report = (rule: string, pos: number, message: string) => findings.push({ rule, line: lineOf(sf, pos), message });
  const nonAscii = /[^\r\n\x20-\x7e]/g;
  for (let m = nonAscii.exec(text); m; m = nonAscii.exec(text)) {
    if (m[0] !== '\t') report('non-ascii-character', m.index, `non-ASCII character '${m[0]}' (it grows the binary)`);
  }
  const visit = (node: ts.Node): void => {
    const arrayTarget = ts.isArrayBindingPattern(node) ||
      (ts.isArrayLiteralExpression(node) && ((ts.isBinaryExpression(node.parent) && node.parent.left === node &&
        node.parent.operatorToken.kind === ts.SyntaxKind.EqualsToken) ||
        ((ts.isForOfStatement(node.parent) || ts.isForInStatement(node.parent)) && node.parent.initializer === node)));
    if (arrayTarget) report('no-array-destructuring', node.getStart(sf), 'use object destructuring: array destructuring iterates');
    if (ts.isNewExpression(node) && ts.isIdentifier(node.expression) && node.expression.text === 'ERR_INVALID_ARG_TYPE') {
      const types = node.arguments?.[1];
      const names = types && ts.isArrayLiteralExpression(types) ? types.elements : types ? [types] : [];
      for (const n of names) {
        if (ts.isStringLiteral(n) && PRIMITIVES.has(n.text.toLowerCase()) && !PRIMITIVES.has(n.text)) {
          report('lowercase-name-for-primitive', n.getStart(sf), `a primitive's name is lowercase: '${n.text.toLowerCase()}'`);
        }
      }
    }
    if (ts.isVariableDeclaration(node) && ts.isObjectBindingPattern(node.name) && node.initializer &&
        ts.isCallExpression(node.initializer) && node.initializer.arguments[0]?.getText(sf) === "'internal/errors'") {
      for (const el of node.name.elements) {
        if (el.propertyName?.getText(sf) !== 'codes' || !ts.isObjectBindingPattern(el.name)) continue;
        const elements = el.name.elements;
        const codes = elements.map((c) => c.name.getText(sf));
        codes.forEach((c, i) => {
          if (i > 0 && codes[i - 1] > c) report('alphabetize-errors', elements[i].getStart(sf), `${c} should come before ${codes[i - 1]}`);
        });
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return findings;
}

export function lintModule(id: string, text: string): LintFinding[] {
  const findings: LintFinding[] = [];
  const idx = indexModule(text, `${id}.js`);
  const sf = idx.sf;
  const report = (rule: string, pos: number, message: string) => findings.push({ rule, line: lineOf(sf, pos), message });

  const header = idx.destructurings.find((d) => d.source === 'primordials');
  const declared = declaredNames(sf);
  const visit = (node: ts.Node): void => {
    if (ts.isIdentifier(node) && isReference(node)) {
      const name = node.text;
      if (name in PRIMORDIAL_GLOBALS && !declared.has(name)) {
        const p = node.parent;
        if (ts.isPropertyAccessExpression(p) && p.expression === node) {
          report('prefer-primordials', node.getStart(sf), `use the primordial ${name}${p.name.text[0].toUpperCase()}${p.name.text.slice(1)} instead of ${name}.${p.name.text}`);
        } else {
          const instead = PRIMORDIAL_GLOBALS[name] || name;
          report('prefer-primordials', node.getStart(sf), `use \`const { ${instead} } = primordials;\` instead of the global ${name}`);
        }
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);

  if (header) {
    const keys = header.pattern.elements.map((el) => (el.propertyName ?? el.name).getText(sf));
    keys.forEach((k, i) => {
      if (i > 0 && keys[i - 1] > k) report('sorted-primordials', header.pattern.elements[i].getStart(sf), `${k} should come before ${keys[i - 1]}`);
    });
  }

  findings.push(...eslintFindings(`lib/${id}.js`, text, 'lib'));
  findings.push(...rootRuleFindings(sf, { duplicateRequires: true }));
  findings.push(...libOnlyFindings(sf, text));
  findings.push(...pollutionFindings(sf));
  findings.push(...oldGenerationClosures(sf));
  return withoutDisabled(findings, text).sort((a, b) => a.line - b.line);
}

/** The rules a directive's text names (none: every rule), and whether it names `rule`. */
function names(list: string, rule: string): boolean {
  const rules = list.split('--')[0].split(',').map((r) => r.trim()).filter(Boolean);
  return rules.length === 0 || rules.some((r) => r === rule || r.endsWith(`/${rule}`));
}

/**
 * Drops the findings an ESLint directive turns off where it stands, as Node's
 * code uses them: `// eslint-disable-next-line rule, …` on the line above,
 * `// eslint-disable-line rule, …` on the line itself, and the lines from
 * `/* eslint-disable rule, … *\/` to the next `/* eslint-enable rule, … *\/`
 * (no rules: every rule), and the whole file after `/* eslint rule: 0 *\/`. A
 * rule is named as ESLint names it, with or without its plugin's prefix.
 */
export function withoutDisabled<F extends LintFinding>(findings: F[], text: string): F[] {
  const lines = text.split('\n');
  const blocks: { line: number; disable: boolean; rules: string }[] = [];
  const offInFile: string[] = [];
  lines.forEach((line, i) => {
    const block = /\/\*\s*eslint-(disable|enable)\b(?!-)([^*]*)\*\//.exec(line);
    if (block) blocks.push({ line: i + 1, disable: block[1] === 'disable', rules: block[2] });
    // `/* eslint rule: 0 */` (or "off") turns a rule off for the whole file.
    const settings = /\/\*\s*eslint\s+([^*]*)\*\//.exec(line);
    for (const setting of settings ? settings[1].split(',') : []) {
      const [name, value] = setting.split(':').map((x) => x.trim());
      if (/^(0|['"]off['"])$/.test(value ?? '')) offInFile.push(name);
    }
  });
  const disables = (line: string | undefined, kind: string, rule: string): boolean => {
    const m = new RegExp(`//\\s*eslint-disable-${kind}\\b([^\\n]*)$`).exec(line ?? '');
    return m !== null && names(m[1], rule);
  };
  const inBlock = (lineNumber: number, rule: string): boolean => {
    let off = false;
    for (const b of blocks) {
      if (b.line > lineNumber) break;
      if (names(b.rules, rule)) off = b.disable;
    }
    return off;
  };
  return findings.filter((f) => !disables(lines[f.line - 2], 'next-line', f.rule) &&
    !disables(lines[f.line - 1], 'line', f.rule) && !inBlock(f.line, f.rule) &&
    !offInFile.some((name) => name === f.rule || name.endsWith(`/${f.rule}`)));
}
