// Entry point run inside the injected Node (one process per side):
//
//   main.js --out FILE [--corpus DIR] [--filter TEXT]   the scenario corpus
//   main.js --out FILE --programs FILE                   generated programs
//   --progress FILE: the id of the running scenario is kept there
//
// Writes { logs: [[id, lines], …], stray: [...] } as JSON to --out (not
// stdout, so a scenario's own console output cannot corrupt it).
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { runScenario, strayEvents } from './harness.js';
import { runProgram } from './program.js';

const { values } = parseArgs({
  options: {
    out: { type: 'string' },
    corpus: { type: 'string' },
    filter: { type: 'string' },
    programs: { type: 'string' },
    list: { type: 'boolean' },
    progress: { type: 'string' },
  },
});

function fail(message) {
  process.stderr.write(`ordering: ${message}\n`);
  process.exit(2);
}

function walk(dir) {
  const files = [];
  for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) files.push(...walk(path));
    else if (/\.(js|json)$/.test(entry.name)) files.push(path);
  }
  return files;
}

const ID = /^[a-z0-9][a-z0-9._-]*(\/[a-z0-9][a-z0-9._-]*)+$/;

/** [id, body] for every scenario under `dir`, in a stable order. */
async function loadCorpus(dir) {
  const scenarios = [];
  const seen = new Set();
  const add = (id, body, file) => {
    if (!ID.test(id)) fail(`${file}: scenario id '${id}' must be lower-case words joined by / and -`);
    if (seen.has(id)) fail(`${file}: duplicate scenario id '${id}'`);
    seen.add(id);
    scenarios.push([id, body]);
  };
  for (const file of walk(dir)) {
    const base = relative(dir, file).replace(/\.(js|json)$/, '');
    if (file.endsWith('.json')) {
      let program;
      try {
        program = JSON.parse(readFileSync(file, 'utf8'));
      } catch (err) {
        fail(`${file}: ${err.message}`);
      }
      if (!program || !Array.isArray(program.ops)) fail(`${file}: a saved program needs an 'ops' array`);
      add(base, (t) => runProgram(t, program), file);
      continue;
    }
    const mod = await import(pathToFileURL(file).href);
    const table = mod.default;
    if (!table || typeof table !== 'object') fail(`${file}: must 'export default { 'name': (t) => … }'`);
    for (const [name, body] of Object.entries(table)) {
      if (typeof body !== 'function') fail(`${file}: scenario '${name}' is not a function`);
      add(`${base}/${name}`, body, file);
    }
  }
  return scenarios;
}

async function main() {
  if (!values.out && !values.list) fail('--out FILE is required');
  let scenarios;
  if (values.programs) {
    const list = JSON.parse(readFileSync(values.programs, 'utf8'));
    scenarios = list.map(({ id, program }) => [id, (t) => runProgram(t, program)]);
  } else {
    scenarios = await loadCorpus(values.corpus ?? join(import.meta.dirname, 'scenarios'));
    if (values.filter) scenarios = scenarios.filter(([id]) => id.includes(values.filter));
  }
  if (values.list) {
    process.stdout.write(`${scenarios.map(([id]) => id).join('\n')}\n`);
    return;
  }
  const logs = [];
  for (const [id, body] of scenarios) {
    // Names the running scenario if the run has to be killed (a loop that
    // never yields cannot report anything itself).
    if (values.progress) writeFileSync(values.progress, id);
    logs.push([id, await runScenario(id, body)]);
  }
  // One last macrotask turn so late stray events of the final scenario count.
  await new Promise((resolve) => setImmediate(resolve));
  writeFileSync(values.out, JSON.stringify({ logs, stray: strayEvents() }));
}

main().catch((err) => fail(err.stack ?? String(err)));
