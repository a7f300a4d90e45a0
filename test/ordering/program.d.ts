// Types for what TypeScript code imports from the harness's program.js
// (plain JS, run in both libs' processes): only the judge's op vocabulary.

/** The ops that are the source's own controller calls: enqueue, close, error. */
export declare const SOURCE_CALLS: ReadonlySet<string>;
