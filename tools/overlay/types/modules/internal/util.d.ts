// internal/util, as webstreams code uses it.
export const customInspectSymbol: unique symbol;
export const kEmptyObject: Readonly<Record<string, never>>;
export const kEnumerableProperty: PropertyDescriptor;
export function SideEffectFreeRegExpPrototypeSymbolReplace(regexp: RegExp, string: string, replacement: string): string;
export function lazyDOMExceptionClass(): new (message?: string, name?: string) => Error;
export function createDeferredPromise<T = unknown>(): { promise: Promise<T>; resolve: (value: T) => void; reject: (reason?: unknown) => void };
export function kEnumerablePropertyGetter(): PropertyDescriptor;
