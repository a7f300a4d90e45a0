import { kState, lazyTransfer } from 'internal/webstreams/util';
import {
  WritableStreamTransferState,
  isWritableStream,
  type WritableStream as DeclaredWritableStream,
} from 'internal/webstreams/writablestream';
import { kTransfer, kTransferList } from 'internal/worker/js_transferable';
import { MessageChannel } from 'internal/worker/io';
import { ERR_INVALID_THIS } from 'internal/errors';

const {
  DOMException,
} = internalBinding('messaging');

interface WritableStream extends DeclaredWritableStream {}

class WritableStream {
  [kTransfer](): object {
    if (!isWritableStream(this))
      throw new ERR_INVALID_THIS('WritableStream');
    const transfer = writableStreamTransferState(this);
    if (this.locked) {
      transfer.port1?.close();
      transfer.port1 = undefined;
      transfer.port2 = undefined;
      throw new DOMException(
        'Cannot transfer a locked WritableStream',
        'DataCloneError');
    }

    const {
      readable,
      promise,
    } = lazyTransfer().newCrossRealmReadableStream(
      this,
      transfer.port1);

    transfer.readable = readable;
    transfer.promise = promise;

    return {
      data: { port: transfer.port2 },
      deserializeInfo:
        'internal/webstreams/writablestream:TransferredWritableStream',
    };
  }

  [kTransferList](): object[] {
    const { port1, port2 } = new MessageChannel();
    const transfer = writableStreamTransferState(this);
    transfer.port1 = port1;
    transfer.port2 = port2;
    return [ port2 ];
  }
}

class WritableStreamState {
  // Created by writableStreamTransferState() when the stream is transferred.
  transfer = undefined;
}

// Only a stream that is transferred needs the record of its MessagePorts
// and cross-realm half, so it is created on first use rather than with
// every stream.
function writableStreamTransferState(stream: WritableStream): WritableStreamTransferState {
  return stream[kState].transfer ??= new WritableStreamTransferState();
}
