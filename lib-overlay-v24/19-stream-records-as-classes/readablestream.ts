// A stream's transfer record, a class for the reason given below.
// @overlay-after isReadableStreamBYOBReader
class ReadableStreamTransferState {
  writable = undefined;
  port1 = undefined;
  port2 = undefined;
  promise = undefined;
}

// The stream's internal slots, as a class: a literal with `__proto__:
// null` is created in dictionary mode, so every read of a slot was a hash
// lookup. `controller` is declared here, not added by the set-up, so that
// every record keeps one hidden class.
// @overlay-after isReadableStreamBYOBReader
class ReadableStreamState {
  closedPromise = undefined;
  disturbed = false;
  reader = undefined;
  state = 'readable';
  storedError = undefined;
  controller = undefined;
  transfer = new ReadableStreamTransferState();
}

function createReadableStreamState() {
  return new ReadableStreamState();
}
