// The race witness of a pipe's shutdown (`<op>.shutdown` in program.delay):
// the old side runs a program again with the shutdown action of the pipe
// that op started (aborting its destination, cancelling its source, or
// both for an abort signal) performed that many microtasks later.
//
// The spec runs a pipe's steps in parallel and fixes no turn for that
// action, so a lib whose pipe reaches it sooner or later than the base's is
// within the spec. When two pipes shut down at once across one
// TransformStream, which of their actions reaches it first decides how it
// ends; no delay of the program's own ops or callbacks moves a pipe's step.
// So the old side gets a hook, inserted the way base fixes are
// (tools/ordering/base-fixes.ts): each pipe reads how late to be from
// `globalThis.__orderingPipeShutdownLater`, which test/ordering/program.js
// sets around a pipeTo or pipeThrough op for the witness and leaves unset
// otherwise, so the hooked lib runs every other program as the lib itself.
import { withBaseFixes, type BaseFix } from './base-fixes.ts';
import type { Lib } from '../lib/injected.ts';

const MODULE = 'internal/webstreams/readablestream';

const HOOK: Omit<BaseFix, 'module' | 'layer' | 'why' | 'variant'>[] = [
  {
    find: 'let shuttingDown = false;',
    replace: 'let shuttingDown = false;\n  let shutdownLater = globalThis.__orderingPipeShutdownLater ?? 0;',
  },
  {
    find: 'function complete() {',
    replace: `function complete() {
      if (shutdownLater > 0) {
        let later = PromiseResolve();
        for (let turn = 1; turn < shutdownLater; turn++)
          later = PromisePrototypeThen(later, () => {});
        shutdownLater = 0;
        PromisePrototypeThen(later, complete);
        return;
      }`,
  },
];

export type HookedLib = { lib: Lib } | { lib?: undefined; why: string };

/**
 * `lib` with the hook (its directory out/lib/<lib's folder>+shutdown-hook-…),
 * or why it cannot have one: a pipe whose code lacks the anchors (another
 * base, a layer that rewrote them) gets no such witness.
 */
export function withShutdownHook(lib: Lib): HookedLib {
  const fixes = HOOK.map((h) => ({ ...h, module: MODULE, layer: 'the pipe-shutdown witness hook', why: 'a pipe\'s shutdown action later', variant: 0 }));
  try {
    return { lib: withBaseFixes(lib, fixes, `${lib.name}+shutdown-hook`, { tag: 'shutdown-hook', origin: 'the pipe-shutdown witness hook' }) };
  } catch (err) {
    return { why: (err as Error).message };
  }
}
