'use strict';
// Minimal models of a ReadableStream with a default controller and of a
// WritableStream with a default writer: the same microtask turns per chunk
// as the spec's algorithms and the objects the API hands out (one promise per
// read() or write(), one { value, done } per read, one reaction per pull or
// sink write), and nothing else: no brand checks, no state records, no
// strategy, no errors or cancellation, synchronous sources and sinks only.
// Their rate is what the same loop costs with all of a stream's bookkeeping
// gone, the ceiling of any implementation that keeps the spec's turns.

const resolved = Promise.resolve();

// A FIFO over an array that keeps its capacity: Array's shift() moves the
// elements, and emptying an array with `length = 0` frees its storage, so a
// queue that fills and empties once per chunk would allocate once per chunk.
// A queue that never empties is compacted once its front half is consumed.
class Fifo {
  constructor() {
    this.items = [];
    this.head = 0;
    this.tail = 0;
  }
  get length() { return this.tail - this.head; }
  push(item) { this.items[this.tail++] = item; }
  peek() { return this.items[this.head]; }
  shift() {
    const item = this.items[this.head];
    this.items[this.head++] = undefined;
    if (this.head === this.tail) {
      this.head = this.tail = 0;
    } else if (this.head >= 1024 && this.head * 2 >= this.tail) {
      // Mostly consumed: move the rest to the front so the array stays small.
      this.items.copyWithin(0, this.head, this.tail);
      this.items.fill(undefined, this.tail - this.head, this.tail);
      this.tail -= this.head;
      this.head = 0;
    }
    return item;
  }
  drain() {
    const items = this.items.slice(this.head, this.tail);
    this.items = [];
    this.head = this.tail = 0;
    return items;
  }
}

// A read request whose result is the promise read() returns.
class PromiseRequest {
  constructor() {
    this.promise = new Promise((resolve) => { this.resolve = resolve; });
  }
  chunk(value) { this.resolve({ value, done: false }); }
  close() { this.resolve({ value: undefined, done: true }); }
}

class MinimalReadable {
  // `pull(controller)` must be synchronous (its result counts as undefined).
  constructor(pull, highWaterMark = 1) {
    this.pullSource = pull;
    this.highWaterMark = highWaterMark;
    this.queue = new Fifo();
    this.requests = new Fifo();
    this.started = false;
    this.pulling = false;
    this.pullAgain = false;
    this.closeRequested = false;
    this.closed = false;
    // True while enqueue() fulfils a parked read: a pipe may not write the
    // chunk before that enqueue() returns (see deferInsideEnqueue).
    this.enqueuing = false;
    this.controller = {
      enqueue: (chunk) => this.enqueue(chunk),
      close: () => this.close(),
    };
    this.pulled = () => {
      this.pulling = false;
      if (this.pullAgain) {
        this.pullAgain = false;
        this.callPullIfNeeded();
      }
    };
    // start() returned undefined: started one turn later.
    resolved.then(() => {
      this.started = true;
      this.callPullIfNeeded();
    });
  }

  callPullIfNeeded() {
    if (!this.started || this.closeRequested || this.closed) return;
    if (this.requests.length === 0 && this.queue.length >= this.highWaterMark) return;
    if (this.pulling) {
      this.pullAgain = true;
      return;
    }
    this.pulling = true;
    this.pullSource(this.controller);
    resolved.then(this.pulled);
  }

  enqueue(chunk) {
    if (this.closeRequested || this.closed) return;
    if (this.requests.length > 0) {
      this.enqueuing = true;
      try {
        this.requests.shift().chunk(chunk);
      } finally {
        this.enqueuing = false;
      }
    } else {
      this.queue.push(chunk);
    }
    this.callPullIfNeeded();
  }

  close() {
    this.closeRequested = true;
    if (this.queue.length > 0) return;
    this.closed = true;
    for (const request of this.requests.drain()) request.close();
  }

  // The pull steps' queue arm: the oldest chunk, then close or pull again.
  dequeue() {
    const chunk = this.queue.shift();
    if (this.closeRequested && this.queue.length === 0) this.closed = true;
    else this.callPullIfNeeded();
    return chunk;
  }

  // ReadableStreamDefaultReaderRead with a request that has chunk/close steps.
  readInto(request) {
    if (this.queue.length > 0) {
      request.chunk(this.dequeue());
    } else if (this.closed) {
      request.close();
    } else {
      this.requests.push(request);
      this.callPullIfNeeded();
    }
  }

  // reader.read(); a buffered chunk settles without a parked request, as in
  // the base's read() fast path.
  read() {
    if (this.queue.length > 0)
      return Promise.resolve({ value: this.dequeue(), done: false });
    const request = new PromiseRequest();
    this.readInto(request);
    return request.promise;
  }

  // The base's iterator: its first next() waits one turn (chained on a
  // resolved promise) before reading, which puts every later next() after
  // the previous pull has settled, so those find their chunk queued.
  [Symbol.asyncIterator]() {
    let first = true;
    return {
      next: () => {
        if (!first) return this.read();
        first = false;
        return resolved.then(() => this.read());
      },
    };
  }
}

// ReadableStreamDefaultTee as the base runs it: one read of the source at a
// time, its chunk forwarded to both branches one turn after it arrives.
function minimalTee(source) {
  let reading = false;
  let pending;
  let branch1;
  let branch2;
  const forward = () => {
    reading = false;
    const chunk = pending;
    pending = undefined;
    branch1.enqueue(chunk);
    branch2.enqueue(chunk);
  };
  const request = {
    chunk(chunk) {
      pending = chunk;
      resolved.then(forward);
    },
    close() {
      reading = false;
      branch1.close();
      branch2.close();
    },
  };
  const pull = () => {
    if (reading) return;
    reading = true;
    source.readInto(request);
  };
  branch1 = new MinimalReadable(pull);
  branch2 = new MinimalReadable(pull);
  return [branch1, branch2];
}

// A WritableStream with a synchronous sink and its writer, high water mark 1.
// writer.ready is not modelled: the loops here never read it, and the base
// only materializes its promise when it is read.
class MinimalWriter {
  // `write(chunk)` and `close()` must be synchronous.
  constructor(write, close = () => {}) {
    this.sinkWrite = write;
    this.sinkClose = close;
    this.queue = new Fifo();
    this.requests = new Fifo();
    this.inFlight = undefined;
    this.started = false;
    this.closed = undefined;
    // Called after each write settles (the pipe's cue to read again).
    this.onWritten = undefined;
    this.written = () => {
      this.inFlight.resolve();
      this.inFlight = undefined;
      this.queue.shift();
      this.advance();
      if (this.onWritten !== undefined) this.onWritten();
    };
    // start() returned undefined: writes begin one turn later.
    resolved.then(() => {
      this.started = true;
      this.advance();
    });
  }

  get desiredSize() {
    return 1 - this.queue.length;
  }

  write(chunk) {
    const request = new PromiseRequest();
    this.writeWithRequest(chunk, request);
    return request.promise;
  }

  // A pipe's write: the request is the pipe's own, shared by every write.
  writeWithRequest(chunk, request) {
    this.requests.push(request);
    this.queue.push(chunk);
    this.advance();
  }

  // Closes the sink once the queue has drained; `done` runs one turn after
  // the sink's close().
  close(done) {
    this.closed = done;
    this.advance();
  }

  advance() {
    if (!this.started || this.inFlight !== undefined) return;
    if (this.queue.length === 0) {
      if (this.closed !== undefined) {
        this.sinkClose();
        resolved.then(this.closed);
        this.closed = undefined;
      }
      return;
    }
    this.inFlight = this.requests.shift();
    this.sinkWrite(this.queue.peek());
    resolved.then(this.written);
  }
}

// A pipe's chunk steps: `steps(chunk)` at once when the read took the chunk
// from the source's queue, one turn later when the chunk fulfilled a parked
// read inside enqueue(). A pipe may not run its destination's write
// algorithm inside the source's enqueue() (piping/general-addition.any.js,
// "enqueue() must not synchronously call write algorithm").
function deferInsideEnqueue(source, steps) {
  return (chunk) => {
    if (source.enqueuing) resolved.then(() => steps(chunk));
    else steps(chunk);
  };
}

// source.pipeTo(sink) for a source without errors or cancellation: the
// spec leaves how a pipe reads and writes to the implementation, so this is
// the leanest schedule: read whenever the destination wants a chunk, write
// it without a promise, read again once a write has settled.
function minimalPipe(source, writer) {
  return new Promise((resolve) => {
    const settled = { resolve() {} };
    let reading = false;
    const request = {
      chunk: deferInsideEnqueue(source, (chunk) => {
        reading = false;
        writer.writeWithRequest(chunk, settled);
        read();
      }),
      close() {
        writer.close(resolve);
      },
    };
    function read() {
      if (reading || writer.desiredSize <= 0) return;
      reading = true;
      source.readInto(request);
    }
    writer.onWritten = read;
    read();
  });
}

// source.pipeThrough(t1)…pipeThrough(tK).pipeTo(writer) where every
// transform is synchronous, at the floor the spec leaves such a chain. How a
// pipe reads and writes is the implementation's choice
// (ReadableStreamPipeTo: "the exact manner in which this happens is not
// observable to author code"), and a TransformStream's writable side locked
// by a pipe has no other observer, so nothing between the source and the
// sink needs a turn of its own. What the spec does fix: the source's pull()
// is not called again before its previous call settles, and the sink's
// write() not before its previous write settles. So per chunk: one pull
// settlement and one sink-write settlement (the two promises of
// minimalPipe), whatever K; each transform gets the controller object the
// API hands to transform(). What no pipe may do is run the next write
// algorithm (the next transform(), the sink's write()) inside the enqueue()
// that handed it the chunk (piping/general-addition.any.js): each
// controller's enqueue() only queues the chunk for the next link, and the
// chain passes it on once transform() has returned. `transformers` are
// functions (chunk, controller) with a synchronous body; no flush().
function minimalChain(source, transformers, writer) {
  const links = transformers.length;
  if (links === 0) throw new TypeError('minimalChain: no transformers (a pipe without links is minimalPipe)');
  return new Promise((resolve) => {
    const settled = { resolve() {} };
    // What each transform enqueued and the next link (the sink after the
    // last) has not taken yet; it is also the controller transform() gets.
    const outputs = Array.from({ length: links }, () => new LinkOutput());
    function pass(chunk) {
      transformers[0](chunk, outputs[0]);
      for (let i = 1; i < links; i++) {
        const input = outputs[i - 1];
        while (input.first !== kEmpty) transformers[i](input.take(), outputs[i]);
      }
      const output = outputs[links - 1];
      while (output.first !== kEmpty) writer.writeWithRequest(output.take(), settled);
    }
    let reading = false;
    const request = {
      chunk: deferInsideEnqueue(source, (chunk) => {
        reading = false;
        pass(chunk);
        read();
      }),
      close() {
        writer.close(resolve);
      },
    };
    function read() {
      if (reading || writer.desiredSize <= 0) return;
      reading = true;
      source.readInto(request);
    }
    writer.onWritten = read;
    read();
  });
}

// A transform's controller in minimalChain: enqueue() keeps the chunks for
// the next link, the first in a field (a synchronous transform enqueues one
// chunk per call, mostly), any more in a queue behind it.
const kEmpty = Symbol('kEmpty');
class LinkOutput {
  constructor() {
    this.first = kEmpty;
    this.rest = new Fifo();
  }
  enqueue(chunk) {
    if (this.first === kEmpty) this.first = chunk;
    else this.rest.push(chunk);
  }
  take() {
    const chunk = this.first;
    this.first = this.rest.length > 0 ? this.rest.shift() : kEmpty;
    return chunk;
  }
}

module.exports = { MinimalReadable, MinimalWriter, minimalChain, minimalPipe, minimalTee };
