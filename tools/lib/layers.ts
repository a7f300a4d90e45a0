// The overlay's layers (lib-overlay/<NN>-<slug>/) and the LAYERS=a..b range.
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { LIB_OVERLAY } from './paths.ts';

export interface Layer {
  /** 1-based position in the series, from the NN prefix. */
  index: number;
  /** The folder name, e.g. `01-native-binding`. */
  name: string;
  dir: string;
}

export function listLayers(root = LIB_OVERLAY): Layer[] {
  if (!existsSync(root)) return [];
  const layers = readdirSync(root, { withFileTypes: true })
    .filter((e) => e.isDirectory())
    .map((e) => {
      const match = /^(\d+)-[a-z0-9][a-z0-9-]*$/.exec(e.name);
      if (!match) throw new Error(`${join(root, e.name)}: layer folders are named <NN>-<slug>`);
      return { index: Number(match[1]), name: e.name, dir: join(root, e.name) };
    })
    .sort((a, b) => a.index - b.index);
  layers.forEach((layer, i) => {
    if (layer.index !== i + 1) throw new Error(`${layer.dir}: expected layer number ${i + 1} (layers are numbered 1, 2, 3… without gaps)`);
  });
  return layers;
}

/** Parses `a..b` (or `b`, meaning 1..b) against the layers there are. */
export function selectLayers(layers: Layer[], range: string | undefined): Layer[] {
  if (range === undefined || range === '') return layers;
  const match = /^(?:(\d+)\.\.)?(\d+)$/.exec(range);
  if (!match) throw new Error(`LAYERS must look like a..b or b, not '${range}'`);
  const from = match[1] === undefined ? 1 : Number(match[1]);
  const to = Number(match[2]);
  if (from < 1 || to < from - 1 || to > layers.length) {
    throw new Error(`LAYERS=${range} is out of range: there are ${layers.length} layers`);
  }
  return layers.slice(from - 1, to);
}
