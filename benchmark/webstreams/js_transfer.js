'use strict';
// Transferring a stream through a MessageChannel, one at a time.
const common = require('../common.js');
const assert = require('assert');
const { MessageChannel } = require('worker_threads');
const { WritableStream, TransformStream, ReadableStream } = require('stream/web');

const bench = common.createBenchmark(main, {
  payload: ['WritableStream', 'ReadableStream', 'TransformStream'],
  n: [5e3],
});

const kinds = { WritableStream, ReadableStream, TransformStream };

function main({ n, payload }) {
  const Kind = kinds[payload];
  assert.ok(Kind, `unknown payload ${payload}`);
  const { port1, port2 } = new MessageChannel();
  let received = 0;

  port2.onmessage = ({ data }) => {
    if (!(data instanceof Kind)) throw new Error(`received ${data} instead of a ${payload}`);
    if (++received === n) {
      bench.end(n);
      port1.close();
    } else {
      send();
    }
  };
  function send() {
    const stream = new Kind();
    port1.postMessage(stream, [stream]);
  }

  bench.start();
  send();
}
