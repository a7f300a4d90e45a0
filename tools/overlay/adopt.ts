// After a merge, a layer's copy may use names the new ground brought in
// (a primordial, a function of the module, an entry of one of its
// requires) that the layer file does not bind yet. They are bound the way
// a person would: the primordials destructuring gains the entry, anything
// else an import from where the module takes it.
import { addEntries, newDestructuring } from './destructure.ts';
import { applyEdits, type Edit } from './edits.ts';
import { indexModule } from './module-index.ts';
import type { OverlayProgram } from './program.ts';
import type { LayerModuleFile } from './source.ts';
import { nextLineStart, ts } from './ts.ts';

// TS2304 "Cannot find name", and TS2552, the same with a "Did you mean" suggestion.
const CANNOT_FIND_NAME = new Set([2304, 2552]);

export interface Adoption {
  text: string;
  /** `name (from source)` for each name bound. */
  adopted: string[];
  /** Names that nothing on the new ground binds. */
  unknown: string[];
}

/** Where the module `moduleText` (the layer's target, on the new ground) gets `name`. */
function sourceOf(moduleText: string, id: string, name: string, primordials: Set<string>): string | undefined {
  const how = indexModule(moduleText, id).bound.get(name);
  if (how === undefined) return primordials.has(name) ? 'primordials' : undefined;
  if (how === 'destructuring of primordials') return 'primordials';
  if (how.startsWith('destructuring of ')) return /^destructuring of require\('([^']+)'\)$/.exec(how)?.[1];
  // A function, class or variable of the module itself: a self-import names it for the type checker.
  return /^(function|class) |^a top-level variable$/.test(how) ? id : undefined;
}

export function adoptNames(p: OverlayProgram, file: LayerModuleFile, moduleText: string, primordials: Set<string>): Adoption | undefined {
  const sf = p.program.getSourceFile(file.path);
  if (!sf) return undefined;
  const missing = new Set<string>();
  for (const d of p.program.getSemanticDiagnostics(sf)) {
    if (!CANNOT_FIND_NAME.has(d.code) || d.start === undefined) continue;
    const node = sf.text.slice(d.start, d.start + (d.length ?? 0));
    if (/^[\w$]+$/.test(node)) missing.add(node);
  }
  if (missing.size === 0) return undefined;
  const bySource = new Map<string, string[]>();
  const unknown: string[] = [];
  for (const name of [...missing].sort()) {
    const source = sourceOf(moduleText, file.id, name, primordials);
    if (source === undefined) unknown.push(name);
    else bySource.set(source, [...(bySource.get(source) ?? []), name]);
  }
  const edits: Edit[] = [];
  const lastImport = [...sf.statements].reverse().find((s) => ts.isImportDeclaration(s));
  const importsEnd = lastImport ? nextLineStart(sf.text, lastImport.end) : 0;
  for (const [source, names] of bySource) {
    const entries = names.map((n) => ({ key: n, text: n }));
    if (source !== 'primordials') {
      edits.push({ start: importsEnd, end: importsEnd, text: `import { ${names.join(', ')} } from '${source}';\n` });
      continue;
    }
    const header = sf.statements.find((s): s is ts.VariableStatement => ts.isVariableStatement(s) &&
      s.declarationList.declarations.length === 1 && ts.isObjectBindingPattern(s.declarationList.declarations[0].name) &&
      s.declarationList.declarations[0].initializer?.getText(sf) === 'primordials');
    if (header) edits.push(...addEntries(sf, header.declarationList.declarations[0].name as ts.ObjectBindingPattern, entries, 'always'));
    else {
      const stmt = newDestructuring(entries, 'primordials');
      edits.push({ start: importsEnd, end: importsEnd, text: lastImport ? `\n${stmt}\n` : `${stmt}\n\n` });
    }
  }
  const adopted = [...bySource].flatMap(([source, names]) => names.map((n) => `${n} (${source})`));
  return { text: applyEdits(sf.text, edits), adopted, unknown };
}
