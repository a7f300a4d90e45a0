import {
  ArrayBufferViewGetBuffer,
  ArrayBufferViewGetByteLength,
  kState,
  type PromiseRecord,
} from 'internal/webstreams/util';
import type { ReadableStreamBYOBReader as DeclaredReadableStreamBYOBReader } from 'internal/webstreams/readablestream';
import {
  isReadableStreamBYOBReader,
  kChunk,
  kClose,
  kError,
  readableStreamBYOBReaderRead,
} from 'internal/webstreams/readablestream';
import {
  ERR_INVALID_ARG_VALUE,
  ERR_INVALID_STATE,
  ERR_INVALID_THIS,
  ERR_OUT_OF_RANGE,
} from 'internal/errors';
import {
  kValidateObjectAllowObjectsAndNull,
  validateBuffer,
  validateNumber,
  validateObject,
} from 'internal/validators';
import { isDataView, isSharedArrayBuffer } from 'internal/util/types';
import { kEmptyObject } from 'internal/util';

const {
  ArrayBufferPrototypeGetByteLength,
  NumberIsInteger,
  PromiseReject,
  TypedArrayPrototypeGetLength,
} = primordials;

type ReadResult = { value: ArrayBufferView | undefined; done: boolean };

// The module's read-into request class (the declarations name only its interface).
declare class ReadIntoRequest {
  readonly promise: Promise<ReadResult>;
  [kState]: PromiseRecord<ReadResult>;
  [kChunk](value: ArrayBufferView): void;
  [kClose](value?: ArrayBufferView): void;
  [kError](error: unknown): void;
}

interface ReadableStreamBYOBReader extends DeclaredReadableStreamBYOBReader {}

class ReadableStreamBYOBReader {
  /**
   * @param {ArrayBufferView} view
   * @param {{
   *   min? : number
   * }} [options]
   * @returns {Promise<{
   *   value : ArrayBufferView,
   *   done : boolean,
   * }>}
   */
  read(view: ArrayBufferView, options: { min?: number } = kEmptyObject): Promise<ReadResult> {
    // Returns the read request's promise itself, as the spec does, instead
    // of adopting it through an async method (a promise more and two
    // microtask turns per read); argument errors still become rejections.
    try {
      return readableStreamBYOBReaderReadView(this, view, options);
    } catch (error) {
      return PromiseReject(error);
    }
  }
}

// The argument checks and the read of ReadableStreamBYOBReader.prototype
// .read(), which turns what they throw into a rejection.
// @overlay-after readableStreamReaderGenericRelease
function readableStreamBYOBReaderReadView(reader: ReadableStreamBYOBReader, view: ArrayBufferView, options: { min?: number } | null): Promise<ReadResult> {
  if (!isReadableStreamBYOBReader(reader))
    throw new ERR_INVALID_THIS('ReadableStreamBYOBReader');
  validateBuffer(view, 'view');
  validateObject(options, 'options', kValidateObjectAllowObjectsAndNull);

  const viewByteLength = ArrayBufferViewGetByteLength(view);
  const viewBuffer = ArrayBufferViewGetBuffer(view);

  if (isSharedArrayBuffer(viewBuffer)) {
    throw new ERR_INVALID_ARG_VALUE(
      'view',
      view,
      'must not be backed by a SharedArrayBuffer',
    );
  }

  const viewBufferByteLength = ArrayBufferPrototypeGetByteLength(viewBuffer);

  if (viewByteLength === 0 || viewBufferByteLength === 0) {
    throw new ERR_INVALID_STATE.TypeError(
      'View or Viewed ArrayBuffer is zero-length or detached');
  }

  // Supposed to assert here that the view's buffer is not
  // detached, but there's no API available to use to check that.

  const min = options?.min ?? 1;
  validateNumber(min, 'options.min');
  if (!NumberIsInteger(min))
    throw new ERR_INVALID_ARG_VALUE('options.min', min, 'must be an integer');
  if (min <= 0)
    throw new ERR_INVALID_ARG_VALUE('options.min', min, 'must be greater than 0');
  if (!isDataView(view)) {
    if (min > TypedArrayPrototypeGetLength(view as TypedArray)) {
      throw new ERR_OUT_OF_RANGE('options.min', '<= view.length', min);
    }
  } else if (min > viewByteLength) {
    throw new ERR_OUT_OF_RANGE('options.min', '<= view.byteLength', min);
  }

  if (reader[kState].stream === undefined) {
    throw new ERR_INVALID_STATE.TypeError('The reader is not attached to a stream');
  }
  const readIntoRequest = new ReadIntoRequest();
  readableStreamBYOBReaderRead(reader, view, min, readIntoRequest);
  return readIntoRequest.promise;
}
