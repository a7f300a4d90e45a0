// tools/lib/test-flags.ts: the `// Flags:` line Node's test runner reads.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { flagsOf } from '../../tools/lib/test-flags.ts';

test('a Node test file\'s // Flags: line, and none', () => {
  const source = "// Flags: --expose-internals  --no-warnings\n'use strict';\nrequire('../common');\n";
  assert.deepEqual(flagsOf(source), ['--expose-internals', '--no-warnings']);
  assert.deepEqual(flagsOf("'use strict';\n// Flags: --expose-gc\n"), ['--expose-gc']);
  assert.deepEqual(flagsOf("'use strict';\n// Not Flags: --x\n"), []);
  assert.deepEqual(flagsOf('// Flags:\n'), []);
});
