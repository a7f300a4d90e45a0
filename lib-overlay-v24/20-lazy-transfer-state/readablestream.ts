import { kState, lazyTransfer } from 'internal/webstreams/util';
import {
  ReadableStreamTransferState,
  isReadableStream,
  type ReadableStream as DeclaredReadableStream,
} from 'internal/webstreams/readablestream';
import { kTransfer, kTransferList } from 'internal/worker/js_transferable';
import { MessageChannel } from 'internal/worker/io';
import { ERR_INVALID_THIS } from 'internal/errors';

const {
  DOMException,
} = internalBinding('messaging');

interface ReadableStream extends DeclaredReadableStream {}

class ReadableStream {
  [kTransfer](): object {
    if (!isReadableStream(this))
      throw new ERR_INVALID_THIS('ReadableStream');
    const transfer = readableStreamTransferState(this);
    if (this.locked) {
      transfer.port1?.close();
      transfer.port1 = undefined;
      transfer.port2 = undefined;
      throw new DOMException(
        'Cannot transfer a locked ReadableStream',
        'DataCloneError');
    }

    const {
      writable,
      promise,
    } = lazyTransfer().newCrossRealmWritableSink(
      this,
      transfer.port1);

    transfer.writable = writable;
    transfer.promise = promise;

    return {
      data: { port: transfer.port2 },
      deserializeInfo:
        'internal/webstreams/readablestream:TransferredReadableStream',
    };
  }

  [kTransferList](): object[] {
    const { port1, port2 } = new MessageChannel();
    const transfer = readableStreamTransferState(this);
    transfer.port1 = port1;
    transfer.port2 = port2;
    return [ port2 ];
  }
}

class ReadableStreamState {
  // Created by readableStreamTransferState() when the stream is transferred.
  transfer = undefined;
}

// Only a stream that is transferred needs the record of its MessagePorts
// and cross-realm half, so it is created on first use rather than with
// every stream.
function readableStreamTransferState(stream: ReadableStream): ReadableStreamTransferState {
  return stream[kState].transfer ??= new ReadableStreamTransferState();
}
