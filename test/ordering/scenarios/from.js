// ReadableStream.from: arrays, generators, async generators, iterables
// whose iterator has return(), promises, throwing and rejecting iterators.

function loggedIterable(t, n, { async = false, throwAt = 0, returnMode = 'sync' } = {}) {
  let i = 0;
  const next = () => {
    t.log(`iterator.next ${i}`);
    if (++i === throwAt) throw new Error('next throws');
    const result = i <= n ? { value: `v${i}`, done: false } : { value: undefined, done: true };
    return async ? Promise.resolve(result) : result;
  };
  const iterator = {
    next,
    return(v) {
      t.log(`iterator.return ${t.fmt(v)}`);
      if (returnMode === 'throw') throw new Error('return throws');
      const result = { value: v, done: true };
      if (returnMode === 'non-object') return async ? Promise.resolve(5) : 5;
      return async ? Promise.resolve(result) : result;
    },
  };
  return async ? { [Symbol.asyncIterator]: () => iterator } : { [Symbol.iterator]: () => iterator };
}

const scenarios = {
  'array': async (t) => {
    await t.drain(ReadableStream.from(['a', 'b', 'c']).getReader());
  },
  'empty-array': async (t) => {
    await t.drain(ReadableStream.from([]).getReader());
  },
  'generator': async (t) => {
    function* gen() {
      for (let i = 1; i <= 3; i++) {
        t.log(`gen yields ${i}`);
        yield i;
      }
      t.log('gen done');
    }
    await t.drain(ReadableStream.from(gen()).getReader());
  },
  'async-generator': async (t) => {
    async function* gen() {
      for (let i = 1; i <= 3; i++) {
        t.log(`agen yields ${i}`);
        yield i;
      }
      t.log('agen done');
    }
    await t.drain(ReadableStream.from(gen()).getReader());
  },
  'async-generator-awaits': async (t) => {
    async function* gen() {
      yield 1;
      await t.ticks(3);
      t.log('agen resumed');
      yield 2;
    }
    await t.drain(ReadableStream.from(gen()).getReader());
  },
  'promises-in-array': async (t) => {
    await t.drain(ReadableStream.from([Promise.resolve('p1'), 'plain', t.ticks(2).then(() => 'p3')]).getReader());
  },
  // An async iterator's values are the chunks as they are; only the
  // async-from-sync iterator around a sync iterator awaits them.
  'async-iterator-thenable-values': async (t) => {
    const thenable = { then: (resolve) => { t.log('thenable.then'); resolve('from then'); } };
    const values = [Promise.resolve('p1'), thenable];
    let i = 0;
    const next = () => Promise.resolve(i < values.length ? { value: values[i++], done: false } : { value: undefined, done: true });
    await t.drain(ReadableStream.from({ [Symbol.asyncIterator]: () => ({ next }) }).getReader());
  },
  'rejected-promise-in-array': async (t) => {
    await t.drain(ReadableStream.from(['ok', Promise.reject(new Error('rejected element'))]).getReader());
  },
  'iterable-with-return-cancel': async (t) => {
    const reader = ReadableStream.from(loggedIterable(t, 5)).getReader();
    t.track('read', reader.read());
    await t.ticks(2);
    t.track('cancel', reader.cancel('stop'));
  },
  'async-iterable-with-return-cancel': async (t) => {
    const reader = ReadableStream.from(loggedIterable(t, 5, { async: true })).getReader();
    t.track('read', reader.read());
    await t.ticks(2);
    t.track('cancel', reader.cancel('stop'));
  },
  'return-throws-on-cancel': async (t) => {
    const reader = ReadableStream.from(loggedIterable(t, 5, { returnMode: 'throw' })).getReader();
    t.track('cancel', reader.cancel('x'));
  },
  'return-non-object-on-cancel': async (t) => {
    const reader = ReadableStream.from(loggedIterable(t, 5, { async: true, returnMode: 'non-object' })).getReader();
    t.track('read', reader.read());
    t.track('cancel', reader.cancel('x'));
  },
  'next-throws': async (t) => {
    await t.drain(ReadableStream.from(loggedIterable(t, 5, { throwAt: 2 })).getReader());
  },
  'break-out-of-for-await': async (t) => {
    for await (const v of ReadableStream.from(loggedIterable(t, 5))) {
      t.log(`value ${v}`);
      if (v === 'v2') break;
    }
  },
  'pipe-from-generator': (t) => {
    function* gen() { yield 'x'; yield 'y'; }
    t.track('pipeTo', ReadableStream.from(gen()).pipeTo(new WritableStream({ write: t.fn('write', 'async'), close: t.fn('close', 'sync') })));
  },
  'from-readable-stream': async (t) => {
    const inner = new ReadableStream({ start: (c) => { c.enqueue(1); c.close(); } });
    const outer = ReadableStream.from(inner);
    t.log(`same ${outer === inner}`);
    await t.drain(outer.getReader());
  },
  'from-string-and-bad-input': async (t) => {
    await t.drain(ReadableStream.from('hé').getReader());
    t.op('from(1)', () => ReadableStream.from(1));
    t.op('from(null)', () => ReadableStream.from(null));
    t.op('from bad iterator', () => ReadableStream.from({ [Symbol.iterator]: () => 5 }));
  },
  'iterator-getter-and-next-getter': async (t) => {
    const iterable = {
      get [Symbol.asyncIterator]() { t.log('asyncIterator read'); return undefined; },
      get [Symbol.iterator]() {
        t.log('iterator read');
        return () => ({
          get next() { t.log('next read'); return () => ({ value: 1, done: true }); },
        });
      },
    };
    await t.drain(ReadableStream.from(iterable).getReader());
  },
};

export default scenarios;
