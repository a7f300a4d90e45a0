// Per-layer type views: a layer sees the declarations of the code beneath it
// and its own, never what a later layer adds; hand-written declarations are
// held to the JS they describe; what they do not name is declared from it.
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { Modules } from '../../tools/lib/libdir.ts';
import { applyLayers } from '../../tools/overlay/apply.ts';
import { checkView, filterDeclarations, generatedDeclarations, layerOrder, readJsModule } from '../../tools/overlay/views.ts';
import { FAKE_ID, fakeModules, overlayRoot } from '../helpers/overlay.ts';

const order = layerOrder([{ index: 1, name: '01-first' }, { index: 2, name: '02-second' }]);
const DTS = `export interface State {
  size: number;
  /** @layer second */
  extra: number;
  /** @removed-by second */
  old: number;
}
export function grow(s: State): void;
/** @layer first: a parameter more. */
export function grow(s: State, by: number): void;
/** @layer elsewhere */
export function never(): void;
`;

describe('type views', () => {
  it('filters declarations by the layer that adds, changes or removes them', () => {
    const view = (k: number) => filterDeclarations(DTS, 'x.d.ts', order, k);
    assert.match(view(0), /size: number;\n {2}\/\*\* @removed-by second \*\/\n {2}old: number;\n\}\nexport function grow\(s: State\): void;\n$/);
    assert.ok(!view(0).includes('extra') && !view(0).includes('never'));
    assert.match(view(1), /export function grow\(s: State, by: number\): void;/);
    assert.ok(!view(1).includes('grow(s: State): void'), 'the tagged overload replaces the base one');
    assert.ok(view(2).includes('extra: number') && !view(2).includes('old: number'));
    assert.ok(!view(2).includes('never'), 'a tag naming a layer the series lacks is never live');
  });

  it('holds declarations to the JS of each state', () => {
    const dir = overlayRoot({}).root;
    const dts = join(dir, 'modules', 'internal', 'webstreams', 'readablestream.d.ts');
    mkdirSync(join(dts, '..'), { recursive: true });
    writeFileSync(dts, 'export function double(n: number): number;\nexport function pushTwice(list: unknown[]): void;\n' +
      'export function gone(): void;\nexport class Widget {\n  grow(): void;\n  shrink(): void;\n}\nexport interface WidgetState {\n  size: number;\n  colour: string;\n}\n');
    const sources = new Map([['modules/internal/webstreams/readablestream.d.ts', dts]]);
    const problems = checkView(sources, order, 0, fakeModules(), 'the base');
    assert.deepEqual(problems.map((p) => p.replace(/^.*readablestream\.d\.ts:/, '')), [
      '2: function pushTwice is declared with 1 parameter, the JS has 2 parameters in the base',
      '3: declares function gone, which the base does not have',
      '6: declares Widget.shrink(), which the base does not have',
      '10: WidgetState.colour is a field no module of the base mentions',
    ]);
  });

  it('declares from the JS what the hand-written files do not name', () => {
    const mod = readJsModule(FAKE_ID, fakeModules().get(FAKE_ID)!);
    const text = generatedDeclarations([mod], { values: new Set(['double']), types: new Set() });
    assert.match(text, /^export function pushTwice\(list: any, value: any\): any;$/m);
    assert.match(text, /^export class Widget \{/m);
    assert.match(text, /^export const kSkip: any;$/m);
    assert.ok(!/function double/.test(text) && !/ArrayPrototypePush/.test(text), 'declared names and imports are left out');
  });

  it("a layer cannot use a field a later layer adds; the later layer can", () => {
    const types = { 'modules/internal/webstreams/readablestream.d.ts': 'export interface WidgetState {\n  size: number;\n  /** @layer second */\n  extra: number;\n}\n' };
    const uses = 'import type { WidgetState } from \'internal/webstreams/readablestream\';\nexport function peek(s: WidgetState): number {\n  return s.extra;\n}\n';
    const make = (layer: string) => {
      const { root, layers } = overlayRoot({ [layer]: { 'readablestream.ts': uses } });
      for (const [rel, text] of Object.entries(types)) {
        mkdirSync(join(root, 'types', rel, '..'), { recursive: true });
        writeFileSync(join(root, 'types', rel), text);
      }
      return layers;
    };
    const base: Modules = fakeModules();
    assert.throws(() => applyLayers(base, make('01-first'), { checkDeclarations: false }), /Property 'extra' does not exist on type 'WidgetState'/);
    const later = overlayRoot({ '01-first': {}, '02-second': { 'readablestream.ts': uses } });
    mkdirSync(join(later.root, 'types', 'modules', 'internal', 'webstreams'), { recursive: true });
    writeFileSync(join(later.root, 'types', 'modules', 'internal', 'webstreams', 'readablestream.d.ts'), types['modules/internal/webstreams/readablestream.d.ts']);
    assert.match(applyLayers(base, later.layers, { checkDeclarations: false }).modules.get(FAKE_ID)!, /return s\.extra;/);
  });
});
