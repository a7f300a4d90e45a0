// The TypeScript program a layer is checked in. One tsconfig shape serves
// the compiler (ts-morph's TypeScript, for receiver types) and the
// `overlay-typecheck` suite (the fast `tsc`), so both see the same world:
//   - ES builtins only (no DOM: ReadableStream & co. are Node's own here);
//   - primordials from Node's typings/ (fixtures) + types/primordials-extra.d.ts;
//   - internalBinding() and the webstreams state shapes from types/globals.d.ts;
//   - `import … from '<node module id>'` resolved to types/modules/<id>.d.ts.
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { NODE_FIXTURES } from '../lib/fixture-paths.ts';
import { ROOT } from '../lib/paths.ts';
import { OverlayError } from './errors.ts';
import { ts } from './ts.ts';
// The ES lib .d.ts texts for ts-morph's TypeScript ship inside its helper
// package (there is no lib folder on disk for that copy of TypeScript).
import { getLibFiles } from '@ts-morph/common';

export const TYPES_DIR = join(ROOT, 'tools', 'overlay', 'types');
const NODE_TYPINGS = join(NODE_FIXTURES, 'typings');

export function overlayTsconfig(files: string[]): { compilerOptions: Record<string, unknown>; files: string[] } {
  return {
    compilerOptions: {
      target: 'esnext',
      lib: ['esnext'],
      module: 'preserve',
      moduleResolution: 'bundler',
      moduleDetection: 'force',
      strict: true,
      noEmit: true,
      skipLibCheck: true,
      types: [],
      erasableSyntaxOnly: true,
      verbatimModuleSyntax: true,
      noFallthroughCasesInSwitch: true,
      paths: {
        'node-typings/*': [`${NODE_TYPINGS}/*`],
        '*': [`${TYPES_DIR}/modules/*`],
      },
    },
    files: [
      join(NODE_TYPINGS, 'primordials.d.ts'),
      join(TYPES_DIR, 'primordials-extra.d.ts'),
      join(TYPES_DIR, 'globals.d.ts'),
      ...files,
    ],
  };
}

function requireTypings(): void {
  if (!existsSync(join(NODE_TYPINGS, 'primordials.d.ts'))) {
    throw new OverlayError(`Node's typings are missing (${NODE_TYPINGS}); run \`make fixtures\``);
  }
}

export function writeTsconfig(path: string, files: string[]): void {
  requireTypings();
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, `${JSON.stringify(overlayTsconfig(files), null, 2)}\n`);
}

const libDir = '/__ts-lib__';
const libs = new Map(getLibFiles().map((f) => [`${libDir}/${f.fileName}`, f.text]));
const libCache = new Map<string, ts.SourceFile>();

export interface OverlayProgram {
  program: ts.Program;
  checker: ts.TypeChecker;
}

/** `checkDeclarations`: also check types/ itself (and every module declaration there), for its own test. */
export function createOverlayProgram(files: string[], opts: { checkDeclarations?: boolean } = {}): OverlayProgram {
  requireTypings();
  const config = overlayTsconfig(files);
  if (opts.checkDeclarations) {
    config.compilerOptions.skipLibCheck = false;
    config.files.push(...(ts.sys.readDirectory(TYPES_DIR, ['.d.ts'], undefined, ['**/*'])));
  }
  const parsed = ts.parseJsonConfigFileContent(config, ts.sys, ROOT);
  if (parsed.errors.length) throw new OverlayError(`overlay tsconfig: ${formatDiagnostics(parsed.errors)}`);
  const host = ts.createCompilerHost(parsed.options);
  const { getSourceFile, fileExists, readFile } = host;
  host.getDefaultLibLocation = () => libDir;
  host.getDefaultLibFileName = (o) => `${libDir}/${ts.getDefaultLibFileName(o)}`;
  host.fileExists = (f) => libs.has(f) || fileExists.call(host, f);
  host.readFile = (f) => libs.get(f) ?? readFile.call(host, f);
  host.getSourceFile = (f, lang, onError, create) => {
    const text = libs.get(f);
    if (text === undefined) return getSourceFile.call(host, f, lang, onError, create);
    // Lib files never change: parse them once per process (most of a program's set-up time).
    let sf = libCache.get(f);
    if (!sf) libCache.set(f, sf = ts.createSourceFile(f, text, lang));
    return sf;
  };
  const program = ts.createProgram({ rootNames: parsed.fileNames, options: parsed.options, host });
  return { program, checker: program.getTypeChecker() };
}

/** Errors in the given files (syntax, types, options). */
export function diagnosticsFor(p: OverlayProgram, files: string[]): readonly ts.Diagnostic[] {
  const out: ts.Diagnostic[] = [...p.program.getOptionsDiagnostics(), ...p.program.getGlobalDiagnostics()];
  for (const file of files) {
    const sf = p.program.getSourceFile(file);
    if (!sf) throw new OverlayError(`${file}: not part of the overlay program`);
    out.push(...p.program.getSyntacticDiagnostics(sf), ...p.program.getSemanticDiagnostics(sf));
  }
  return out;
}

export function formatDiagnostics(diags: readonly ts.Diagnostic[]): string {
  return ts.formatDiagnostics(diags, {
    getCanonicalFileName: (f) => f,
    getCurrentDirectory: () => ROOT,
    getNewLine: () => '\n',
  }).trimEnd();
}
