// internal/worker/io, as far as webstreams use it.
export class MessagePort {
  close(): void;
  postMessage(message: unknown, transfer?: readonly unknown[]): void;
}
export class MessageChannel {
  readonly port1: MessagePort;
  readonly port2: MessagePort;
}
