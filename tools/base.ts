// `make base`: write the base lib (out/lib/base) from the pinned binary, or
// from $NODE_DIR/lib when NODE_DIR is set. `--check [--dir D]` verifies an
// existing out/lib/base (or D) against its source byte for byte and fails
// loudly.
import { parseFlags } from './lib/args.ts';
import { libDir, PINNED_NODE, pinnedNodeVersion } from './lib/paths.ts';
import { readLibDir, writeLibDir } from './lib/libdir.ts';
import { readFromBinary, readFromCheckout, type BaseSource } from './lib/base-source.ts';

function readBase(): BaseSource {
  const nodeDir = process.env.NODE_DIR;
  if (nodeDir) return readFromCheckout(nodeDir);
  const base = readFromBinary(PINNED_NODE);
  const pinned = pinnedNodeVersion();
  if (base.nodeVersion !== pinned) {
    throw new Error(`${PINNED_NODE} is ${base.nodeVersion} but package.json pins ${pinned}; run \`npm ci\``);
  }
  return base;
}

function check(dir: string, base: BaseSource): string[] {
  const { manifest, modules } = readLibDir(dir);
  const problems: string[] = [];
  if (manifest.nodeVersion !== base.nodeVersion) {
    problems.push(`manifest says ${manifest.nodeVersion}, source is ${base.nodeVersion}`);
  }
  for (const id of new Set([...modules.keys(), ...base.modules.keys()])) {
    const have = modules.get(id);
    const want = base.modules.get(id);
    if (have === undefined) problems.push(`${id}: missing from ${dir}`);
    else if (want === undefined) problems.push(`${id}: not in the source`);
    else if (have !== want) problems.push(`${id}: differs from the source (${have.length} vs ${want.length} chars)`);
  }
  return problems;
}

function main(): void {
  const { values } = parseFlags({ check: { type: 'boolean' }, dir: { type: 'string' } }, 'node tools/base.ts [--check [--dir D]]');
  const dir = values.dir ?? libDir('base');
  const base = readBase();
  if (values.check) {
    const problems = check(dir, base);
    if (problems.length > 0) {
      console.error(`base check FAILED: ${dir} does not match ${base.origin}`);
      for (const p of problems) console.error(`  ${p}`);
      console.error('run `make base` again');
      process.exit(1);
    }
    console.log(`base check ok: ${base.modules.size} modules match ${base.origin} (${base.nodeVersion})`);
    return;
  }
  writeLibDir(dir, { nodeVersion: base.nodeVersion, origin: base.origin, layers: [] }, base.modules);
  console.log(`wrote ${base.modules.size} modules from ${base.origin} (${base.nodeVersion}) to ${dir}`);
}

try {
  main();
} catch (err) {
  console.error(`base: ${(err as Error).message}`);
  process.exit(1);
}
