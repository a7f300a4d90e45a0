// Test helpers: a tiny git repository shaped like a Node checkout (version
// header, a webstreams lib file, a Python
// ./configure and a Makefile that "build" a stand-in binary), and patch
// series made from it with git format-patch.
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

export const IDENTITY = {
  GIT_AUTHOR_NAME: 'Test Author', GIT_AUTHOR_EMAIL: 'author@example.invalid',
  GIT_COMMITTER_NAME: 'Test Author', GIT_COMMITTER_EMAIL: 'author@example.invalid',
  GIT_AUTHOR_DATE: '2026-01-01T00:00:00Z', GIT_COMMITTER_DATE: '2026-01-01T00:00:00Z',
};

/** git with a fixed identity and no user config; throws on failure. */
export function g(dir: string, ...args: string[]): string {
  const r = spawnSync('git', args, { cwd: dir, encoding: 'utf8', env: { ...process.env, ...IDENTITY, GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_NOSYSTEM: '1' } });
  if (r.status !== 0) throw new Error(`git ${args.join(' ')}: ${r.stderr}`);
  return r.stdout.trim();
}

const made: string[] = [];
process.on('exit', () => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

/** A temporary directory, removed when the test process exits. */
export function tempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), `webstreams-${prefix}-`));
  made.push(dir);
  return dir;
}


export function versionHeader(version: string, release = true): string {
  const [major, minor, patch] = version.replace(/^v/, '').split('.');
  return `#ifndef SRC_NODE_VERSION_H_\n#define SRC_NODE_VERSION_H_\n\n#define NODE_MAJOR_VERSION ${major}\n#define NODE_MINOR_VERSION ${minor}\n` +
    `#define NODE_PATCH_VERSION ${patch}\n\n#define NODE_VERSION_IS_LTS 0\n#define NODE_VERSION_IS_RELEASE ${release ? 1 : 0}\n\n#endif\n`;
}

export const FILES: Record<string, string> = {
  'lib/internal/webstreams/readablestream.js': "'use strict';\n\nfunction read() {\n  return 1;\n}\n\nmodule.exports = { read };\n",
  // A Python ./configure (node-build runs it with Python, as Node's does) that records its arguments.
  configure: "import json, os, sys\nos.makedirs('out/Release', exist_ok=True)\nopen('config.args.json', 'w').write(json.dumps(sys.argv[1:]))\n",
  // `make` builds a stand-in node: --version, and for the embedded-lib probe the tree's lib as it was at build time.
  Makefile: 'all:\n\t@mkdir -p out/Release\n' +
    '\t@python3 -c \'import json; print(json.dumps({"internal/webstreams/readablestream": open("lib/internal/webstreams/readablestream.js").read()}))\' > out/Release/natives.json\n' +
    '\t@printf \'#!/bin/sh\\nif [ "$$1" = --version ]; then echo v26.12.1; else cat "$$(dirname "$$0")/natives.json"; fi\\n\' > out/Release/node\n' +
    '\t@echo "# built from $$(git rev-parse HEAD)" >> out/Release/node\n\t@chmod +x out/Release/node\n',
  '.gitignore': '/out/\n/config.args.json\n',
};

/** A committed Node-like repo on branch main at `version`; `edit` may change the files first. */
export function nodeRepo(version = 'v26.12.1', edit: (files: Record<string, string>) => void = () => {}): string {
  const dir = tempDir('node');
  const files = { ...FILES, 'src/node_version.h': versionHeader(version) };
  edit(files);
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  chmodSync(join(dir, 'configure'), 0o755);
  g(dir, 'init', '--quiet', '--initial-branch=main');
  g(dir, 'add', '--all');
  g(dir, 'commit', '--quiet', '-m', `base ${version}`);
  return dir;
}

export interface LayerChange {
  slug: string;
  subject: string;
  /** Path → new content, applied on top of the previous layers. */
  files: Record<string, string>;
}

/**
 * patches/NNNN-<slug>.patch for `changes` in order, made with git
 * format-patch on a scratch branch of `repo` (which ends where it began).
 */
export function makePatches(repo: string, changes: LayerChange[]): string {
  const out = tempDir('patches');
  const start = g(repo, 'rev-parse', 'HEAD');
  const branch = g(repo, 'branch', '--show-current');
  g(repo, 'switch', '--quiet', '--create', 'scratch-series');
  for (const c of changes) {
    for (const [path, text] of Object.entries(c.files)) {
      mkdirSync(dirname(join(repo, path)), { recursive: true });
      writeFileSync(join(repo, path), text);
    }
    g(repo, 'add', '--all');
    g(repo, 'commit', '--quiet', '-m', `${c.subject}\n\nBody of ${c.slug}.`);
  }
  const raw = tempDir('format-patch');
  g(repo, 'format-patch', '--quiet', '-o', raw, `${start}..scratch-series`);
  readdirSync(raw).sort().forEach((name, i) => renameSync(join(raw, name), join(out, `${String(i + 1).padStart(4, '0')}-${changes[i].slug}.patch`)));
  g(repo, 'switch', '--quiet', branch);
  g(repo, 'branch', '--quiet', '-D', 'scratch-series');
  return out;
}
