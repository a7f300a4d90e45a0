// Applies one overlay layer to a set of lib modules. (Placeholder until the
// compiler lands: an empty layer stack is the only supported input.)
import type { Modules } from '../lib/libdir.ts';
import type { Layer } from '../lib/layers.ts';

export function applyLayer(_modules: Modules, layer: Layer): Modules {
  throw new Error(`${layer.dir}: the overlay compiler is not implemented yet`);
}
