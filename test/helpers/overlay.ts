// Test helpers for the overlay compiler: throwaway layer folders and a small
// synthetic module in Node lib style to splice into.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { listLayers, type Layer } from '../../tools/lib/layers.ts';
import type { Modules } from '../../tools/lib/libdir.ts';

export const PATCH_MD = 'stream: test layer\n\nBody.\n\nSigned-off-by: T <t@example.com>\n';

/** An overlay root with the given layers: { '01-a': { 'readablestream.ts': '…' } }. */
export function overlayRoot(layers: Record<string, Record<string, string>>): { root: string; layers: Layer[] } {
  const root = mkdtempSync(join(tmpdir(), 'overlay-test-'));
  for (const [name, files] of Object.entries(layers)) {
    const dir = join(root, name);
    mkdirSync(dir, { recursive: true });
    if (!('PATCH.md' in files)) writeFileSync(join(dir, 'PATCH.md'), PATCH_MD);
    for (const [file, text] of Object.entries(files)) {
      mkdirSync(dirname(join(dir, file)), { recursive: true });
      writeFileSync(join(dir, file), text);
    }
  }
  return { root, layers: listLayers(root) };
}

/** A small module shaped like Node's webstreams modules. */
export const FAKE_MODULE = `'use strict';

const {
  ArrayPrototypePush,
  MathMax,
  PromiseResolve,
  Symbol,
} = primordials;

const {
  codes: {
    ERR_INVALID_ARG_VALUE,
  },
} = require('internal/errors');

const {
  kState,
  kType,
} = require('internal/webstreams/util');

const kSkip = Symbol('kSkip');

let counter = 0;

/**
 * Doubles a number.
 */
function double(n) {
  return n * 2;
}

// Pushes twice.
function pushTwice(list, value) {
  ArrayPrototypePush(list, value);
  ArrayPrototypePush(list, value);
}

function unrelated() {
  return MathMax(1, counter);
}

class Widget {
  [kType] = 'Widget';

  constructor() {
    this[kState] = { size: 0 };
  }

  /**
   * @type {number}
   */
  get size() {
    return this[kState].size;
  }

  grow() {
    this[kState].size++;
  }
}

function settle() {
  if (counter < 0) throw new ERR_INVALID_ARG_VALUE('counter', counter);
  return PromiseResolve(kSkip);
}

module.exports = {
  Widget,
  double,
  pushTwice,
  unrelated,
  settle,
};
`;

export const FAKE_ID = 'internal/webstreams/readablestream';

export function fakeModules(text = FAKE_MODULE): Modules {
  return new Map([[FAKE_ID, text], ['internal/webstreams/util', `'use strict';\nmodule.exports = {\n  kState,\n  kType,\n  Queue,\n};\n`]]);
}

/** The lines of `after` that are not in `before` (a cheap diff for assertions). */
export function addedLines(before: string, after: string): string[] {
  const old = new Set(before.split('\n'));
  return after.split('\n').filter((l) => !old.has(l));
}
