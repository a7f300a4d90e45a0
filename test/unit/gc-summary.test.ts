import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PINNED_NODE, ROOT } from '../../tools/lib/paths.ts';
import { parseNvp, summarize } from '../../tools/gc-summary.ts';

const line = (fields: object) => `[1:0x1:0]       76 ms: GC: ${JSON.stringify(fields)}`;
const LOG = [
  '[1:0x1:0]       76 ms: Memory pool: Removed pages: 0',
  line({ gc: 's', new_space_survived: 4096, promoted: 0, new_space_capacity: 1048576 }),
  line({ gc: 's', new_space_survived: 2048, promoted: 1024, new_space_capacity: 2097152 }),
  line({ gc: 'mc', new_space_capacity: 2097152 }),
  line({ gc: 's', new_space_survived: 6144, promoted: 3072, new_space_capacity: 2097152 }),
].join('\n');

test('gc-summary counts the collections and averages what each scavenge kept', () => {
  const events = parseNvp(LOG);
  assert.equal(events.length, 4);
  assert.deepEqual(summarize(events), {
    scavenges: 3, fullCollections: 1, survivedKiBPerScavenge: 4, promotedKiBPerScavenge: 4 / 3, maxNewSpaceMiB: 2,
  });
  // --skip leaves the warm-up's scavenges out of the averages, not the counts.
  const late = summarize(events, 1);
  assert.equal(late.scavenges, 3);
  assert.equal(late.survivedKiBPerScavenge, 4);
  assert.equal(late.promotedKiBPerScavenge, 2);
});

test('gc-summary prints one line per log and refuses a log without --trace-gc-nvp lines', () => {
  const dir = mkdtempSync(join(tmpdir(), 'gc-summary-'));
  writeFileSync(join(dir, 'gc.log'), LOG);
  writeFileSync(join(dir, 'plain.log'), '[1:0x1]  5 ms: Scavenge 1.0 (2.0) -> 0.5 (2.0) MB');
  const run = (...args: string[]) => spawnSync(PINNED_NODE, [join(ROOT, 'tools', 'gc-summary.ts'), ...args], { encoding: 'utf8' });
  const ok = run(join(dir, 'gc.log'), '--skip', '1');
  assert.equal(ok.status, 0, ok.stderr);
  assert.match(ok.stdout, /3 scavenges, 1 full collections, per scavenge 4 KiB survived and 2 KiB promoted \(after the first 1\), new space up to 2 MiB/);
  const plain = run(join(dir, 'plain.log'));
  assert.equal(plain.status, 1);
  assert.match(plain.stderr, /no 'GC: \{…\}' lines/);
  const badSkip = run(join(dir, 'gc.log'), '--skip', 'x');
  assert.equal(badSkip.status, 2);
  assert.match(badSkip.stderr, /--skip must be an integer >= 0, not 'x'/);
  assert.equal(run().status, 2);
});
