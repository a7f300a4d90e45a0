// buffer, as webstreams code uses it.
export class Buffer extends Uint8Array {
  static from(value: ArrayBufferLike | ArrayLike<number> | string, byteOffsetOrEncoding?: number | string, length?: number): Buffer;
  static byteLength(value: string | ArrayBufferView, encoding?: string): number;
  toString(encoding?: string, start?: number, end?: number): string;
}
