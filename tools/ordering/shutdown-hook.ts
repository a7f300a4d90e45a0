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
import type { Lib } from '../lib/injected.ts';
import { readLibDir, replaceOnce, writeDerivedLib } from '../lib/libdir.ts';

const MODULE = 'internal/webstreams/readablestream';

/** Each anchor in readableStreamPipeTo (it occurs once) and what goes after it. */
const HOOK: { after: string; insert: string }[] = [
  {
    after: 'let shuttingDown = false;',
    insert: '\n  let shutdownLater = globalThis.__orderingPipeShutdownLater ?? 0;',
  },
  {
    after: 'function complete() {',
    insert: `
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

/** The witness's key in program.delay for the pipe that op `op` starts. */
export const shutdownKey = (op: number): string => `${op}.shutdown`;

/** Whether a witness's delay moves a pipe's shutdown (and so needs the hook). */
export const delaysShutdown = (delay: Record<string, number>): boolean => Object.keys(delay).some((what) => what.endsWith('.shutdown'));

export type HookedLib = { lib: Lib } | { lib?: undefined; why: string };

/**
 * `lib` with the hook (in out/lib/<lib's folder>+shutdown-hook-…,
 * writeDerivedLib), or why it cannot have one: a pipe whose code lacks the
 * anchors (another base, a layer that rewrote them) gets no such witness.
 */
export function withShutdownHook(lib: Lib): HookedLib {
  const { manifest, modules } = readLibDir(lib.dir);
  try {
    for (const { after, insert } of HOOK) replaceOnce(modules, MODULE, after, after + insert);
  } catch (err) {
    return { why: (err as Error).message };
  }
  return { lib: { name: `${lib.name}+shutdown-hook`, dir: writeDerivedLib(lib.dir, manifest, modules, 'shutdown-hook', 'the pipe-shutdown witness hook') } };
}
