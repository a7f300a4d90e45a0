// The TypeScript program a layer is checked in. One tsconfig shape serves
// the compiler (ts-morph's TypeScript, for receiver types) and the
// `overlay-typecheck` suite (the fast `tsc`), so both see the same world:
//   - ES builtins only (no DOM: ReadableStream & co. are Node's own here);
//   - primordials from the base's Node typings/ + the view's primordials-extra.d.ts;
//   - internalBinding() and the webstreams state shapes from the view's globals.d.ts;
//   - `import … from '<node module id>'` resolved to the view's modules/<id>.d.ts.
// The view is the layer's own (tools/overlay/views.ts): declarations of the
// code beneath it and of the layer, nothing later layers add.
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

import { ROOT } from '../lib/paths.ts';
import { OverlayError } from './errors.ts';
import { ts } from './ts.ts';
import type { View } from './views.ts';
// The ES lib .d.ts texts for ts-morph's TypeScript ship inside its helper
// package (there is no lib folder on disk for that copy of TypeScript).
import { getLibFiles } from '@ts-morph/common';

export interface TypeWorld {
  view: View;
  typings: string;
}

export function overlayTsconfig(files: string[], world: TypeWorld): { compilerOptions: Record<string, unknown>; files: string[] } {
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
        'node-typings/*': [`${world.typings}/*`],
        '*': [`${world.view.dir}/modules/*`],
      },
    },
    files: [join(world.typings, 'primordials.d.ts'), ...world.view.roots, ...files],
  };
}

function requireTypings(typings: string): void {
  if (!existsSync(join(typings, 'primordials.d.ts'))) {
    throw new OverlayError(`Node's typings are missing (${typings}); run \`make fixtures\``);
  }
}

export function writeTsconfig(path: string, files: string[], world: TypeWorld): void {
  requireTypings(world.typings);
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, `${JSON.stringify(overlayTsconfig(files, world), null, 2)}\n`);
}

const libDir = '/__ts-lib__';
const libs = new Map(getLibFiles().map((f) => [`${libDir}/${f.fileName}`, f.text]));
const libCache = new Map<string, ts.SourceFile>();

export interface OverlayProgram {
  program: ts.Program;
  checker: ts.TypeChecker;
}

/** `checkDeclarations`: also check the view itself (every module declaration there), for its own test. */
export function createOverlayProgram(files: string[], world: TypeWorld, opts: { checkDeclarations?: boolean } = {}): OverlayProgram {
  requireTypings(world.typings);
  const config = overlayTsconfig(files, world);
  if (opts.checkDeclarations) {
    config.compilerOptions.skipLibCheck = false;
    config.files.push(...(ts.sys.readDirectory(world.view.dir, ['.d.ts'], undefined, ['**/*'])));
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
