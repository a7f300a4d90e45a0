// internal/webstreams/queuingstrategies as a layer sees it.
import type { kState, kType } from 'internal/webstreams/util';

export class ByteLengthQueuingStrategy {
  [kType]: 'ByteLengthQueuingStrategy';
  [kState]: { highWaterMark: number };
  constructor(init: { highWaterMark: number });
  readonly highWaterMark: number;
  readonly size: (chunk: ArrayBufferView) => number;
}

export class CountQueuingStrategy {
  [kType]: 'CountQueuingStrategy';
  [kState]: { highWaterMark: number };
  constructor(init: { highWaterMark: number });
  readonly highWaterMark: number;
  readonly size: () => 1;
}
