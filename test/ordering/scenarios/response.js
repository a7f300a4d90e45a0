// Response bodies over a ReadableStream: undici reads them through the
// injected lib with its own reader loop.

const enc = new TextEncoder();

function body(t, { mode = 'sync', chunks = ['he', 'llo'], type, end = 'close' } = {}) {
  let i = 0;
  return new ReadableStream({
    ...(type ? { type } : {}),
    pull: t.fn('pull', mode, (c) => {
      if (i < chunks.length) c.enqueue(enc.encode(chunks[i++]));
      else if (end === 'close') c.close();
      else c.error(new Error('body error'));
    }),
    cancel: t.fn('cancel', 'sync'),
  });
}

const scenarios = {};
for (const how of ['text', 'arrayBuffer', 'bytes', 'json', 'blob']) {
  scenarios[`${how.toLowerCase()}-sync-pull`] = (t) => {
    const chunks = how === 'json' ? ['{"a":', '1}'] : undefined;
    t.track(how, new Response(body(t, { chunks }))[how]().then((v) => (how === 'blob' ? `Blob(${v.size})` : v)));
  };
}

Object.assign(scenarios, {
  'text-async-pull': (t) => { t.track('text', new Response(body(t, { mode: 'late' })).text()); },
  'text-byte-stream': (t) => { t.track('text', new Response(body(t, { type: 'bytes' })).text()); },
  'text-start-enqueued': (t) => {
    const rs = new ReadableStream({ start: t.fn('start', 'sync', (c) => { c.enqueue(enc.encode('ab')); c.enqueue(enc.encode('c')); c.close(); }) });
    t.track('text', new Response(rs).text());
  },
  'arraybuffer-errored-body': (t) => { t.track('arrayBuffer', new Response(body(t, { end: 'error' })).arrayBuffer()); },
  'text-non-bytes-chunk': (t) => {
    const rs = new ReadableStream({ start: (c) => { c.enqueue('not bytes'); c.close(); }, cancel: t.fn('cancel', 'sync') });
    t.track('text', new Response(rs).text());
  },
  'body-read-twice': (t) => {
    const res = new Response(body(t));
    t.track('text#1', res.text());
    t.op('text#2', () => res.text());
    t.log(`bodyUsed ${res.bodyUsed}`);
  },
  'body-cancel': async (t) => {
    const res = new Response(body(t, { mode: 'late' }));
    t.log(`locked ${res.body.locked}`);
    t.track('cancel', res.body.cancel('no thanks'));
  },
  'body-reader': async (t) => {
    const res = new Response(body(t));
    await t.drain(res.body.getReader());
  },
  'clone-and-read-both': async (t) => {
    const res = new Response(body(t));
    const copy = res.clone();
    t.track('original', res.text());
    t.track('copy', copy.text());
  },
  'string-body-stream': async (t) => {
    await t.drain(new Response('plain string').body.getReader());
  },
  'pipe-through-to-response': (t) => {
    const rs = body(t).pipeThrough(new TransformStream({ transform: t.fn('transform', 'sync', (c, ctl) => ctl.enqueue(c)) }));
    t.track('text', new Response(rs).text());
  },
});

export default scenarios;
