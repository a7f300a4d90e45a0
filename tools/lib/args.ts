// Minimal flag parsing shared by the CLIs (node:util parseArgs, strict).
import { parseArgs, type ParseArgsConfig } from 'node:util';

export function parseFlags<T extends NonNullable<ParseArgsConfig['options']>>(options: T, usage: string) {
  try {
    return parseArgs({ options, strict: true, allowPositionals: true });
  } catch (err) {
    console.error(`${(err as Error).message}\nusage: ${usage}`);
    process.exit(2);
  }
}

/** A whole-number flag of at least `min`; stops with the usage otherwise. */
export function intFlag(tool: string, name: string, value: string | undefined, min: number, usage: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < min) {
    console.error(`${tool}: --${name} must be an integer >= ${min}, not '${value}'\nusage: ${usage}`);
    process.exit(2);
  }
  return n;
}
