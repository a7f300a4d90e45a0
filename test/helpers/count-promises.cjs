'use strict';
// Preload (-r): prints how many promises the process created, on exit, as
// `promises: N` on stderr (v8 promise hooks see every promise, including
// the ones await and then() create).
const { promiseHooks } = require('v8');

let count = 0;
promiseHooks.onInit(() => { count++; });
process.on('exit', () => { process.stderr.write(`promises: ${count}\n`); });
