// The overlay's layers (lib-overlay/<NN>-<slug>/) and what LAYERS=a..b means.
//
// LAYERS=a..b (or b, meaning 1..b) names one thing everywhere: the change
// layers a..b make on top of layers 1..a-1. Its old side is the lib after
// layer a-1 (the base when a = 1), its new side the lib after layer b.
// `make build` writes every state, so any range can be run.
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

/** A layer's declaration of a base bug it fixes (tools/ordering/base-fixes.ts). */
export const BASE_FIX_FILE = 'base-fix.json';

/** Folders of an overlay root that are not layers. */
export const NON_LAYER_DIRS = new Set(['types']);

export function listLayers(root = LIB_OVERLAY): Layer[] {
  if (!existsSync(root)) return [];
  const layers = readdirSync(root, { withFileTypes: true })
    .filter((e) => e.isDirectory() && !NON_LAYER_DIRS.has(e.name))
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

export interface LayerRange {
  /** First layer of the change (1-based); the old side is the state after from - 1. */
  from: number;
  /** Last layer of the change; the new side is the state after it. from - 1 when empty. */
  to: number;
}

/** Parses `a..b` (or `b`, meaning 1..b); no range means every layer. */
export function parseLayerRange(range: string | undefined, count: number): LayerRange {
  if (range === undefined || range === '') return { from: 1, to: count };
  const match = /^(?:(\d+)\.\.)?(\d+)$/.exec(range);
  if (!match) throw new Error(`LAYERS must look like a..b or b, not '${range}'`);
  const from = match[1] === undefined ? 1 : Number(match[1]);
  const to = Number(match[2]);
  if (from < 1 || to < from - 1 || to > count) {
    throw new Error(`LAYERS=${range} is out of range: there are ${count} layers`);
  }
  return { from, to };
}

/** The layers a..b of LAYERS=a..b. */
export function selectLayers(layers: Layer[], range: string | undefined): Layer[] {
  const { from, to } = parseLayerRange(range, layers.length);
  return layers.slice(from - 1, to);
}

/**
 * Lib directory name of the state after layer k of a series of `count`:
 * `base` (k = 0), `layers-k`, `patched` (every layer). Another overlay root
 * gets its own names: `overlay-<name>-layers-k`, `overlay-<name>`.
 */
export function stateLibName(k: number, count: number, overlayName?: string): string {
  if (k === 0) return 'base';
  const prefix = overlayName ? `overlay-${overlayName}` : '';
  if (k === count) return prefix || 'patched';
  return prefix ? `${prefix}-layers-${k}` : `layers-${k}`;
}
