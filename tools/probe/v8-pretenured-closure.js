'use strict';
// V8 alone, no streams: a function literal assigned straight to a property
// is allocated in the old generation (the parser's pretenure hint,
// CheckAssigningFunctionLiteralToProperty in parser.h) unless TurboFan
// compiled the code, and a dead closure there keeps what it captures alive
// through every scavenge until the next full GC. The repro for a V8 report
// (doc/series.md, "The retention found: closures V8 pretenures").
//
//   node --allow-natives-syntax tools/probe/v8-pretenured-closure.js
//   node --max-opt=2 --trace-gc-nvp --min-semi-space-size=16 \
//     --max-semi-space-size=16 tools/probe/v8-pretenured-closure.js retain <form>
//
// The first prints where each form puts the closure; the second makes one
// 1 KiB-holding record after another, each keeping a closure of the given
// form, for tools/gc-summary.ts. --max-opt=2 stops at Maglev (as code that
// runs once per stream does; --jitless shows the same): TurboFan compiles
// this hot loop and ignores the hint.

const forms = {
  'property': (o, v) => { o.f = () => v; },
  'property-parenthesized': (o, v) => { o.f = (() => v); },
  'nullish-assignment': (o, v) => { o.f ??= () => v; },
  'element': (o, v) => { o[0] = () => v; },
  'const-then-property': (o, v) => { const f = () => v; o.f = f; },
  'comma': (o, v) => { o.f = (0, () => v); },
  'object-literal': (o, v) => { o.g = { f: () => v }; o.f = o.g.f; },
};

if (process.argv[2] === 'retain') {
  const form = forms[process.argv[3] ?? 'property'];
  if (form === undefined) {
    console.error(`forms: ${Object.keys(forms).join(', ')}`);
    process.exit(2);
  }
  // One record at a time is alive; the previous one is garbage as soon as
  // the next replaces it, unless an old-space closure still holds it.
  let live;
  for (let i = 0; i < 2e6; i++) {
    const record = { payload: new Array(128).fill(i) };
    form(record, record);
    live = record;
  }
  if (live.f() !== live) throw new Error('closure lost its record');
} else {
  let young;
  try {
    // Compiled here, so that the retain mode runs without the flag.
    young = new Function('value', 'return %InYoungGeneration(value);');
  } catch {
    console.error('run with --allow-natives-syntax');
    process.exit(2);
  }
  for (const [name, form] of Object.entries(forms)) {
    const o = {};
    form(o, o);
    console.log(`${name.padEnd(24)} ${young(o.f) ? 'young' : 'OLD'}`);
  }
}
