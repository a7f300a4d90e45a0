'use strict';
// The page and the TransformStreams of real-world/ssr-response.js: the
// kind a server-rendering framework chains behind the renderer's stream
// (Next.js's head insertion and suffix mover have this shape).
const { TransformStream } = require('node:stream/web');

const encoder = new TextEncoder();
const HEAD_CLOSE = encoder.encode('</head>');
const SUFFIX = encoder.encode('</body></html>');
const HEAD_TAGS = encoder.encode('<link rel="preload" href="/app.css" as="style"><script src="/app.js" async></script>');

/** An HTML page of at least `length` bytes that ends with SUFFIX. */
function pageBytes(length) {
  let html = '<!DOCTYPE html><html><head><title>page</title></head><body>';
  for (let i = 0; html.length < length - SUFFIX.length; i++)
    html += `<div class="row" data-i="${i}"><span>item ${i}</span></div>`;
  return encoder.encode(`${html}</body></html>`);
}

/** Where `needle` starts in `haystack`, or -1 (Buffer's native search). */
function indexOfBytes(haystack, needle) {
  return Buffer.from(haystack.buffer, haystack.byteOffset, haystack.byteLength).indexOf(needle);
}

// The transforms' steps, given a controller or anything with enqueue(), so
// that the benchmark can derive what the response must receive without
// streams.
function insertHead(state, chunk, controller) {
  if (!state.inserted) {
    const at = indexOfBytes(chunk, HEAD_CLOSE);
    if (at !== -1) {
      state.inserted = true;
      controller.enqueue(chunk.subarray(0, at));
      controller.enqueue(HEAD_TAGS);
      controller.enqueue(chunk.subarray(at));
      return;
    }
  }
  controller.enqueue(chunk);
}

function moveSuffix(state, chunk, controller) {
  if (!state.found) {
    const at = indexOfBytes(chunk, SUFFIX);
    if (at !== -1) {
      state.found = true;
      if (at > 0) controller.enqueue(chunk.subarray(0, at));
      if (at + SUFFIX.byteLength < chunk.byteLength) controller.enqueue(chunk.subarray(at + SUFFIX.byteLength));
      return;
    }
  }
  controller.enqueue(chunk);
}

function headInsertion() {
  const state = { inserted: false };
  return new TransformStream({
    transform(chunk, controller) {
      insertHead(state, chunk, controller);
    },
  });
}

function suffixMover() {
  const state = { found: false };
  return new TransformStream({
    transform(chunk, controller) {
      moveSuffix(state, chunk, controller);
    },
    flush(controller) {
      if (state.found) controller.enqueue(SUFFIX);
    },
  });
}

function byteCounter(counted) {
  return new TransformStream({
    transform(chunk, controller) {
      counted.bytes += chunk.byteLength;
      controller.enqueue(chunk);
    },
  });
}

/**
 * Where the renderer cuts `page` into views of about `size` bytes: as a
 * renderer flushes whole segments, the first view runs at least to the end
 * of </head> and the last one holds the whole closing suffix.
 */
function viewBounds(page, size) {
  const headEnd = indexOfBytes(page, HEAD_CLOSE) + HEAD_CLOSE.byteLength;
  const suffixStart = page.byteLength - SUFFIX.byteLength;
  const bounds = [];
  let start = 0;
  while (start < page.byteLength) {
    let end = Math.min(start + size, page.byteLength);
    if (start === 0) end = Math.max(end, headEnd);
    if (end > suffixStart) end = page.byteLength;
    bounds.push([start, end]);
    start = end;
  }
  return bounds;
}

/** The chunks a response receives for `page` cut at `bounds`. */
function expectedPieces(page, bounds) {
  const inserted = [];
  const head = { inserted: false };
  for (const [start, end] of bounds)
    insertHead(head, page.subarray(start, end), { enqueue: (piece) => inserted.push(piece) });
  const pieces = [];
  const suffix = { found: false };
  for (const chunk of inserted) moveSuffix(suffix, chunk, { enqueue: (piece) => pieces.push(piece) });
  if (!head.inserted || !suffix.found) throw new Error('a view split </head> or the suffix');
  pieces.push(SUFFIX);
  return pieces;
}

module.exports = { pageBytes, viewBounds, headInsertion, suffixMover, byteCounter, expectedPieces, HEAD_TAGS };
