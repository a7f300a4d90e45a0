// Primordials the pinned Node has that the fixture's typings/primordials.d.ts
// (from an older Node) does not declare. Add here what a layer needs.
declare namespace primordials {
  export const SafeMap: typeof Map;
  export const SafeSet: typeof Set;
  export const SafeWeakMap: typeof WeakMap;
  export const SafeWeakSet: typeof WeakSet;
  export const SafeWeakRef: typeof WeakRef;
  export const SafeFinalizationRegistry: typeof FinalizationRegistry;
  export const SafePromiseAll: <T, R = T>(promises: readonly T[], mapFn?: (value: T, index: number) => R) => Promise<Awaited<R>[]>;
  export const SafePromiseAllReturnVoid: (promises: readonly unknown[], mapFn?: (p: unknown) => unknown) => Promise<void>;
  export const SafePromiseAllReturnArrayLike: typeof Promise.all;
  export const SafePromiseAllSettled: typeof Promise.allSettled;
  export const SafePromiseAllSettledReturnVoid: (promises: readonly unknown[]) => Promise<void>;
  export const SafePromiseAny: typeof Promise.any;
  export const SafePromiseRace: typeof Promise.race;
  export const SafePromisePrototypeFinally: <T>(promise: Promise<T>, onFinally?: () => void) => Promise<T>;
  export const ArrayPrototypeAt: <T>(self: readonly T[], index: number) => T | undefined;
}
