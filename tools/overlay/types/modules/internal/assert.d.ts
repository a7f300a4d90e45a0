// internal/assert: `const assert = require('internal/assert')` (import assert from 'internal/assert').
declare function assert(value: unknown, message?: string): asserts value;
export default assert;
