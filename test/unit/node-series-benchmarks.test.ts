// citedBenchmarks(): the benchmark files a patch's commit message cites,
// which the series' in-tree suites require to be in the tree with that
// commit applied (Node: "Every benchmark a PR cites must exist in
// benchmark/ or be added by it").
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { onPrBase } from '../../tools/node/node-benchmarks.ts';
import { citedBenchmarks, filesAddedBy } from '../../tools/node/series.ts';
import { tempDir } from '../helpers/node-repo.ts';

const PATCH = `From 0000000000000000000000000000000000000000 Mon Sep 17 00:00:00 2001
Subject: [PATCH] stream: something

Body text naming webstreams/not-a-row.js in prose.

                                                  confidence improvement accuracy (*)    (**)   (***)
    webstreams/pipe-to.js highWaterMarkW=512 n=2000000          1.59 %      ±17.47% ±23.94% ±32.62%
    webstreams/pipe-to.js highWaterMarkW=4096 n=2000000   *     4.43 %      ±14.30% ±19.76% ±27.31%
    webstreams/pipe-through.js kind='default' n=1000000        -4.27 %      ±21.13% ±28.97% ±39.53%

Assisted-by: an AI coding agent
---
 benchmark/webstreams/added.js | 47 ++++++++
diff --git a/benchmark/webstreams/added.js b/benchmark/webstreams/added.js
+    webstreams/in-the-diff.js n=1   1.00 %
`;

test('the rows of the table in the commit message, each file once, nothing from prose or the diff', () => {
  const file = join(tempDir('cited'), '0001-x.patch');
  writeFileSync(file, PATCH);
  assert.deepEqual(citedBenchmarks(file), ['benchmark/webstreams/pipe-to.js', 'benchmark/webstreams/pipe-through.js']);
});

test('a patch without a table cites nothing', () => {
  const file = join(tempDir('cited'), '0001-y.patch');
  writeFileSync(file, 'Subject: [PATCH] stream: y\n\nNo table.\n---\n');
  assert.deepEqual(citedBenchmarks(file), []);
});

test('a patch that creates a file names it among the files it adds; one that changes a file does not', () => {
  const file = join(tempDir('added'), '0001-z.patch');
  writeFileSync(file, `Subject: [PATCH] stream: z\n\n---\n` +
    'diff --git a/benchmark/webstreams/added.js b/benchmark/webstreams/added.js\nnew file mode 100644\nindex 0000000..1111111\n' +
    'diff --git a/lib/internal/webstreams/util.js b/lib/internal/webstreams/util.js\nindex 2222222..3333333 100644\n');
  assert.deepEqual(filesAddedBy(file), ['benchmark/webstreams/added.js']);
});

test("Node's own set counts as present for a PR against main only, and only under benchmark/webstreams/", () => {
  assert.equal(onPrBase('benchmark/webstreams/lifecycle.js', 'main'), true);
  assert.equal(onPrBase('benchmark/webstreams/writable-write.js', 'main'), true);
  assert.equal(onPrBase('benchmark/webstreams/lifecycle.js', 'v24.x-staging'), false);
  assert.equal(onPrBase('benchmark/webstreams/lifecycle-adapted.js', 'main'), false);
  assert.equal(onPrBase('benchmark/streams/lifecycle.js', 'main'), false);
});
