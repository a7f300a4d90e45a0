// buffer, as webstreams code uses it.
export interface Buffer extends Uint8Array {
  toString(encoding?: string, start?: number, end?: number): string;
}
export const Buffer: {
  /** Deprecated as an API, but Buffer is a constructor (byte pull-into descriptors compare against it). */
  new (buffer: ArrayBuffer, byteOffset?: number, length?: number): Buffer;
  from(value: ArrayBufferLike | ArrayLike<number> | string, byteOffsetOrEncoding?: number | string, length?: number): Buffer;
  byteLength(value: string | ArrayBufferView, encoding?: string): number;
  isBuffer(value: unknown): value is Buffer;
  readonly prototype: Buffer;
};
