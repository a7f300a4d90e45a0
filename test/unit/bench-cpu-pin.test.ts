// tools/bench/cpu-pin.ts: CPUSET lists are checked against the machine, and
// a pinned command really runs on the CPUs given.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { assertCanPin, checkCpuList, pinnedCommand, splitCpuset } from '../../tools/bench/cpu-pin.ts';

test('checkCpuList: taskset syntax, within the CPUs there are', () => {
  assert.equal(checkCpuList('1', 2), '1');
  assert.equal(checkCpuList(' 0-1 ', 2), '0-1');
  assert.equal(checkCpuList('0, 2-3', 4), '0,2-3');
  assert.throws(() => checkCpuList('', 2), /CPUSET takes CPU numbers and ranges/);
  assert.throws(() => checkCpuList('one', 2), /CPUSET takes CPU numbers and ranges/);
  assert.throws(() => checkCpuList('0,,1', 2), /CPUSET takes CPU numbers and ranges/);
  assert.throws(() => checkCpuList('3-1', 4), /the range 3-1 runs backwards/);
  assert.throws(() => checkCpuList('2', 2), /this machine has CPUs 0-1, got 2/);
  assert.throws(() => checkCpuList('0-2', 2), /this machine has CPUs 0-1, got 2/);
});

test('splitCpuset takes one checked CPUSET= out of a --set list', () => {
  assert.deepEqual(splitCpuset(['n=10', 'CPUSET= 0 ', 'type=normal']), { cpuset: '0', rest: ['n=10', 'type=normal'] });
  assert.deepEqual(splitCpuset(['n=10']), { cpuset: null, rest: ['n=10'] });
  assert.throws(() => splitCpuset(['CPUSET=0', 'CPUSET=0']), /--set CPUSET= was given 2 times/);
  assert.throws(() => splitCpuset(['CPUSET=x']), /CPUSET takes CPU numbers and ranges/);
});

test('pinnedCommand runs the command on those CPUs only', () => {
  assertCanPin('0');
  const cmd = pinnedCommand('0', 'grep', ['Cpus_allowed_list', '/proc/self/status']);
  const r = spawnSync(cmd.command, cmd.args, { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /^Cpus_allowed_list:\s*0\n$/);
});

test('assertCanPin says what failed', () => {
  // A CPU the kernel does not have: taskset refuses it.
  assert.throws(() => assertCanPin('4095'), /CPUSET=4095: taskset failed: .+/);
});
