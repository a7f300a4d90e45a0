// The two libs a differential run compares and the deviations the tested
// layers declare, shared by tools/ordering.ts and tools/fuzz.ts.
import { resolveLib, type Lib } from '../lib/injected.ts';
import { readLibDir } from '../lib/libdir.ts';
import { LIB_OVERLAY } from '../lib/paths.ts';
import { declaredDeviations, type Declared } from './deviations.ts';
import { listLayers, type Layer } from '../lib/layers.ts';
import { baseFixes, fixedBase, withBaseFixes, type BaseFix } from './base-fixes.ts';

export interface Sides {
  oldLib: Lib;
  newLib: Lib;
  layers: Layer[];
  declared: Map<string, Declared[]>;
  /** Base bugs the tested layers fix, inserted into the old side (tools/ordering/base-fixes.ts). */
  fixes: BaseFix[];
  /** Base bugs later layers fix, inserted into both sides of a layer range. */
  laterFixes: BaseFix[];
  /**
   * For a range of the main series that starts after layer 1: the base
   * with every fix of the series, the reference a layer may bring a
   * program back to (tools/fuzz.ts).
   */
  baseRef?: Lib;
}

/**
 * `--old`/`--new` are lib names (base, patched) or lib directories. With
 * LAYERS=a..b, `base` and `patched` are the two sides of that change (the
 * states after layers a-1 and b), and deviations come from layers a..b
 * under `overlay` (default lib-overlay/). When those layers fix a bug of
 * the base (base-fix.json), the old side (the state before them, however
 * named) gets the same fix, so that only what they change beyond it is
 * judged. A bug a later layer fixes is fixed on both sides of the range:
 * each layer is judged on what it changes, on a base without the bug (as
 * it will be once the fix lands first), not on where its timing happens to
 * expose or hide the bug.
 */
export function resolveSides(oldSpec: string, newSpec: string, overlay: string | undefined): Sides {
  const seriesOld = resolveLib(oldSpec === 'base' && process.env.LAYERS ? 'before' : oldSpec);
  const newLib = resolveLib(newSpec);
  const root = overlay ?? LIB_OVERLAY;
  const { layers, byId } = declaredDeviations(root, process.env.LAYERS);
  const all = listLayers(root);
  if (newSpec === 'patched' && overlay === undefined) {
    // A stale out/lib/patched would be judged against the wrong declarations.
    const built = readLibDir(newLib.dir).manifest.layers;
    const expected = all.slice(0, layers.at(-1)?.index ?? 0).map((l) => l.name);
    if (built.join() !== expected.join()) {
      throw new Error(`${newLib.dir} was built from layers [${built.join(', ')}] but the overlay has [${expected.join(', ')}] up to there; run \`make build\``);
    }
  }
  // A lib that already has a layer has its fix: `--old patched` (or a hand-
  // edited copy of a built state) takes none of that layer's base fix.
  const has = new Set(readLibDir(seriesOld.dir).manifest.layers);
  const fixes = baseFixes(layers).filter((f) => !has.has(f.layer));
  const last = layers.at(-1)?.index;
  // The new side is the state after the range: `patched` here, or any lib
  // with the overlay named (tools/series/check.ts passes each state's dir).
  const laterFixes = (newSpec === 'patched' || overlay !== undefined) && process.env.LAYERS && last !== undefined
    ? baseFixes(all.filter((l) => l.index > last)) : [];
  const oldLib = withBaseFixes(seriesOld, [...fixes, ...laterFixes]);
  const startsLater = oldSpec === 'base' && overlay === undefined && process.env.LAYERS && (layers[0]?.index ?? 1) > 1;
  const baseRef = startsLater ? fixedBase() : undefined;
  return { oldLib, newLib: withBaseFixes(newLib, laterFixes), layers, declared: byId, fixes, laterFixes, baseRef };
}
