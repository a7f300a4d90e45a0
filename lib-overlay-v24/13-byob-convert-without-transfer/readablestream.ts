import { type PullIntoDescriptor } from 'internal/webstreams/readablestream';
import { ERR_INVALID_STATE } from 'internal/errors';
import { Buffer } from 'buffer';
import assert from 'internal/assert';

function readableByteStreamControllerConvertPullIntoDescriptor(desc: PullIntoDescriptor): ArrayBufferView {
  const {
    buffer,
    bytesFilled,
    byteLength,
    byteOffset,
    ctor,
    elementSize,
  } = desc;
  if (bytesFilled > byteLength)
    throw new ERR_INVALID_STATE.RangeError('The buffer size is invalid');
  assert(!(bytesFilled % elementSize));
  // The spec transfers the buffer here so that nobody holding it sees the
  // view's bytes. Nobody can hold it: a descriptor starts with a buffer
  // no one else has (the transfer of the reader's view in
  // readableByteStreamControllerPullInto(), or the auto-allocated one), a
  // buffer is only ever shown through the byobRequest view of the head
  // descriptor, and respond(), respondWithNewView() and enqueue() replace
  // the head descriptor's buffer with a transfer of it before it is
  // filled or committed. The view can use the buffer itself, saving an
  // ArrayBuffer and a transfer per BYOB read.
  if (ctor === Buffer) {
    return Buffer.from(buffer, byteOffset, bytesFilled / elementSize);
  }

  return new ctor(buffer, byteOffset, bytesFilled / elementSize);
}
