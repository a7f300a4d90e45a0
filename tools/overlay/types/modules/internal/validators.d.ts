// internal/validators, as webstreams code uses it.
export function validateAbortSignal(signal: unknown, name: string): void;
export function validateBuffer(buffer: unknown, name?: string): void;
export function validateFunction(value: unknown, name: string): asserts value is (...args: unknown[]) => unknown;
export function validateNumber(value: unknown, name: string, min?: number, max?: number): asserts value is number;
export function validateObject(value: unknown, name: string, options?: number): void;
export const kValidateObjectAllowObjects: number;
export const kValidateObjectAllowObjectsAndNull: number;
export function validateOneOf(value: unknown, name: string, oneOf: readonly unknown[]): void;
