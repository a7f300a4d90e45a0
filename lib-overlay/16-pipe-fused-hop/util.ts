const {
  Symbol,
} = primordials;

// What transformStreamFusedWrite() returns when transform() did not hand
// exactly one chunk to the pipe that ran it.
export const kNoChunk = Symbol('kNoChunk');
