// The two libs a differential run compares and the deviations the tested
// layers declare, shared by tools/ordering.ts and tools/fuzz.ts.
import { resolveLib, type Lib } from '../lib/injected.ts';
import { readLibDir } from '../lib/libdir.ts';
import { LIB_OVERLAY } from '../lib/paths.ts';
import { declaredDeviations, type Declared } from './deviations.ts';
import type { Layer } from '../lib/layers.ts';

export interface Sides {
  oldLib: Lib;
  newLib: Lib;
  layers: Layer[];
  declared: Map<string, Declared[]>;
}

/**
 * `--old`/`--new` are lib names (base, patched — which honours LAYERS) or lib
 * directories. Deviations come from the layers LAYERS selects under
 * `overlay` (default lib-overlay/).
 */
export function resolveSides(oldSpec: string, newSpec: string, overlay: string | undefined): Sides {
  const oldLib = resolveLib(oldSpec);
  const newLib = resolveLib(newSpec);
  const { layers, byId } = declaredDeviations(overlay ?? LIB_OVERLAY, process.env.LAYERS);
  if (newSpec === 'patched' && overlay === undefined) {
    // A stale out/lib/patched would be judged against the wrong declarations.
    const built = readLibDir(newLib.dir).manifest.layers;
    const expected = layers.map((l) => l.name);
    if (built.join() !== expected.join()) {
      throw new Error(`${newLib.dir} was built from layers [${built.join(', ')}] but the overlay selects [${expected.join(', ')}]; run \`make build${process.env.LAYERS ? ` LAYERS=${process.env.LAYERS}` : ''}\``);
    }
  }
  return { oldLib, newLib, layers, declared: byId };
}
