// stream (Node's classic streams), as webstreams code uses it.
/** The parts of a stream.Readable the adapters read. */
export interface NodeReadable {
  readonly _readableState: object;
  readonly readableObjectMode: boolean;
  readonly readableHighWaterMark: number;
  pause(): this;
  resume(): this;
  on(event: string, listener: (...args: any[]) => void): this;
  [key: symbol]: unknown;
}
export function destroy(stream: object, error?: unknown): void;
