// What V8's young-generation collections kept, from a --trace-gc-nvp log:
// how many scavenges and full collections ran, how much each scavenge kept
// alive and promoted to the old generation, and how far V8 grew the new
// space. A lib that makes less garbage scavenges less often, and V8 sizes
// the young generation by what survives, so two libs can see very
// different collections on the same benchmark.
//
//   bin/node-patched --trace-gc-nvp benchmark/real-world/ssr-response.js > gc.log
//   node tools/gc-summary.ts gc.log [--skip 10]
import { readFileSync } from 'node:fs';
import { intFlag, parseFlags } from './lib/args.ts';

interface GcEvent {
  gc: string;
  new_space_survived?: number;
  promoted?: number;
  new_space_capacity?: number;
}

export interface GcSummary {
  scavenges: number;
  fullCollections: number;
  survivedKiBPerScavenge: number;
  promotedKiBPerScavenge: number;
  maxNewSpaceMiB: number;
}

/** The GC events of a --trace-gc-nvp log (one JSON object per `GC: {…}` line). */
export function parseNvp(log: string): GcEvent[] {
  const events: GcEvent[] = [];
  for (const line of log.split('\n')) {
    const at = line.indexOf('GC: {');
    if (at !== -1) events.push(JSON.parse(line.slice(at + 4)) as GcEvent);
  }
  return events;
}

/** Per-scavenge averages over the scavenges after the first `skip` (warm-up). */
export function summarize(events: GcEvent[], skip = 0): GcSummary {
  const scavenges = events.filter((e) => e.gc === 's');
  const counted = scavenges.slice(skip);
  const perScavenge = (key: 'new_space_survived' | 'promoted') =>
    counted.length === 0 ? 0 : counted.reduce((sum, e) => sum + (e[key] ?? 0), 0) / counted.length / 1024;
  return {
    scavenges: scavenges.length,
    fullCollections: events.length - scavenges.length,
    survivedKiBPerScavenge: perScavenge('new_space_survived'),
    promotedKiBPerScavenge: perScavenge('promoted'),
    maxNewSpaceMiB: Math.max(0, ...events.map((e) => e.new_space_capacity ?? 0)) / 1048576,
  };
}

if (import.meta.main) {
  const usage = 'node tools/gc-summary.ts <trace-gc-nvp log>… [--skip N]';
  const { values, positionals } = parseFlags({ skip: { type: 'string', default: '0' } }, usage);
  const skip = intFlag('gc-summary', 'skip', values.skip, 0, usage);
  if (positionals.length === 0) {
    console.error(`gc-summary: give one or more --trace-gc-nvp logs\nusage: ${usage}`);
    process.exit(2);
  }
  for (const file of positionals) {
    const events = parseNvp(readFileSync(file, 'utf8'));
    if (events.length === 0) {
      console.error(`gc-summary: ${file} has no 'GC: {…}' lines; was it written with --trace-gc-nvp?`);
      process.exit(1);
    }
    const s = summarize(events, skip);
    console.log(`${file}: ${s.scavenges} scavenges, ${s.fullCollections} full collections, ` +
      `per scavenge ${s.survivedKiBPerScavenge.toFixed(0)} KiB survived and ${s.promotedKiBPerScavenge.toFixed(0)} KiB promoted` +
      `${skip ? ` (after the first ${skip})` : ''}, new space up to ${s.maxNewSpaceMiB} MiB`);
  }
}
