'use strict';
// Shared by the real-world benchmarks: text with multi-byte UTF-8
// characters, and its bytes cut into fixed-size pieces as a network read
// would deliver them (boundaries inside characters included).

// Tokens of a streamed chat completion: ASCII, Latin-1 (2 bytes), CJK (3
// bytes) and an emoji (4 bytes, a surrogate pair in JS).
const TOKENS = [
  'Hello', ',', ' wörld', '!', ' Ça', ' va', ' très', ' bien', '.', ' 日本語', 'の', 'テキスト', ' 🎉',
  ' naïve', ' café', ' 100', ' €', ' —', ' done', '\\n', ' "quoted"', ' Ελληνικά', ' Привет', ' ok',
];

/** Views of `bytes`, `size` bytes each (the last one shorter). */
function splitBytes(bytes, size) {
  const chunks = [];
  for (let offset = 0; offset < bytes.length; offset += size) {
    chunks.push(new Uint8Array(bytes.buffer, bytes.byteOffset + offset, Math.min(size, bytes.length - offset)));
  }
  return chunks;
}

/** How many chunks start inside a character (with a UTF-8 continuation byte). */
function midCharacterSplits(chunks) {
  let splits = 0;
  for (const chunk of chunks) if ((chunk[0] & 0xc0) === 0x80) splits++;
  return splits;
}

module.exports = { TOKENS, splitBytes, midCharacterSplits };
