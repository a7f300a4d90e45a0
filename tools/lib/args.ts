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
