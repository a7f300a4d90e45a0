// buffer, as webstreams code uses it.
export interface Buffer extends Uint8Array {
  toString(encoding?: string, start?: number, end?: number): string;
}
export const Buffer: {
  from(value: ArrayBufferLike | ArrayLike<number> | string, byteOffsetOrEncoding?: number | string, length?: number): Buffer;
  byteLength(value: string | ArrayBufferView, encoding?: string): number;
  readonly prototype: Buffer;
};
