// The in-tree suites' named checks count what passed and what failed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Checks, expect } from '../../tools/lib/checks.ts';

test('a check that throws is counted as failed, by name, and the next still runs', (t) => {
  t.mock.method(console, 'log', () => {});
  const checks = new Checks();
  assert.equal(checks.check('holds', () => expect(1 + 1 === 2, 'arithmetic')), true);
  assert.equal(checks.check('breaks', () => expect(false, 'the tree has no lib')), false);
  assert.equal(checks.check('holds too', () => {}), true);
  assert.deepEqual([checks.passed, checks.failed, checks.failures], [2, 1, ['breaks']]);
});
