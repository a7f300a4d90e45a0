// The ordering harness: runs scenarios one after another inside ONE injected
// Node process and records, per scenario, an event log whose lines carry the
// microtask position they happened at.
//
// Position: a marker chain of queueMicrotask ticks runs alongside each
// scenario. Every microtask a scenario (or the lib) queues lands between two
// markers, so one extra or one missing promise hop moves an event by one
// tick and changes its log line. Lines look like `1:4 read#2 fulfilled …`:
// phase 1, tick 4.
//
// Phases: a chain that keeps the microtask queue busy also keeps
// process.nextTick callbacks and macrotasks from running (the lib uses
// nextTick for tee close). So the chain stops after QUIET ticks without an
// event, lets the nextTick queue run, and restarts as a new phase; after a
// phase with no event it restarts after a macrotask (setImmediate) instead.
// A scenario ends when its body has settled and both a nextTick phase and a
// macrotask phase saw nothing. Timers are never used: logs are the same run
// to run on the same lib.
import { fmt, fmtArgs } from './format.js';
import { installStreamRecording, registerStreamsWith, StreamRegistry } from './streams.js';

installStreamRecording();

const QUIET = 25;            // ticks without an event that end a phase
const MAX_PHASE_TICKS = 5000; // a phase that is never quiet still ends here
const MAX_PHASES = 60;       // a scenario busy for longer than this is cut off
const MAX_LINES = 20000;     // more events than this: a runaway loop, stop the run
const CALLBACK_NAME = /^[A-Za-z_$][\w$#-]*(?:\.[A-Za-z_$][\w$#-]*)*$/;

let current = null;          // the scenario context receiving unattributed events
const stray = [];            // events of scenarios that had already ended

process.on('unhandledRejection', (reason) => {
  if (current) current.log(`unhandled rejection ${fmt(reason)}`);
  else stray.push(`(between scenarios) unhandled rejection ${fmt(reason)}`);
});
// A lib bug that throws out of a microtask must not end the whole run: the
// exception is an event of the scenario like any other.
process.on('uncaughtException', (err) => {
  if (current) current.log(`uncaught exception ${fmt(err)}`);
  else stray.push(`(between scenarios) uncaught exception ${fmt(err)}`);
});
process.on('rejectionHandled', () => {
  if (current) current.log('rejection handled late');
});

export function strayEvents() {
  return stray;
}

// The callback behaviours the corpus and the fuzz programs choose from.
// `body` runs first (it may enqueue, close…); then the mode decides what the
// callback returns or throws.
export const MODES = [
  'sync',            // returns undefined
  'async',           // returns an already resolved promise (an async function)
  'late',            // returns a promise resolved 3 ticks later
  'throw',           // throws synchronously
  'reject',          // returns a rejected promise
  'thenable',        // returns a non-promise thenable that resolves
  'thenable-reject', // returns a non-promise thenable that rejects
  'then-getter',     // returns an object whose `then` getter is logged and yields undefined
  'then-getter-fn',  // returns an object whose `then` getter yields a resolving function
  'value',           // returns a plain non-thenable value
  'never',           // returns a promise that never settles
];

// The modes whose result a race witness can make settle later: those the
// lib waits for, a synchronous result (then handed back as a promise) and a
// throw (then a rejection).
const DELAYABLE_MODES = new Set(['sync', 'throw', 'async', 'late', 'reject', 'thenable', 'thenable-reject', 'then-getter-fn']);

export class Context {
  constructor(id) {
    this.id = id;
    this.lines = [];
    this.phase = 1;
    this.tick = 0;
    this.quiet = 0;
    this.phaseEvents = 0;
    this.sealed = false;
    this.counters = new Map();
    this.macrotaskWaiters = [];
    this.streams = new StreamRegistry();
  }

  /** Names a stream for its `final <name> <state>` line (see streams.js). */
  stream(name, stream) {
    return this.streams.name(stream, name);
  }

  /** Records one event at the current position. */
  log(text) {
    if (this.sealed) {
      stray.push(`${this.id}: ${text}`);
      return;
    }
    this.lines.push(`${this.phase}:${this.tick} ${text}`);
    if (this.lines.length > MAX_LINES) {
      // An endless microtask loop never lets the run continue; fail fast
      // and name the scenario instead of growing the log until OOM.
      process.stderr.write(`ordering: scenario ${this.id} logged over ${MAX_LINES} events (an endless loop?); last: ${text}\n`);
      process.exit(3);
    }
    this.quiet = 0;
    this.phaseEvents++;
  }

  fmt(value) {
    return fmt(value);
  }

  /** A label with a per-scenario serial number: read#1, read#2… */
  serial(label) {
    const n = (this.counters.get(label) ?? 0) + 1;
    this.counters.set(label, n);
    return `${label}#${n}`;
  }

  /** Logs a promise's settlement; logs non-promises as plain results. */
  track(label, value) {
    if (value instanceof Promise) {
      value.then(
        (v) => this.log(`${label} fulfilled ${fmt(v)}`),
        (e) => this.log(`${label} rejected ${fmt(e)}`));
    } else {
      this.log(`${label} = ${fmt(value)}`);
    }
    return value;
  }

  /** Runs a synchronous API call, logging a throw or tracking its result. */
  op(label, thunk) {
    let value;
    try {
      value = thunk();
    } catch (err) {
      this.log(`${label} threw ${fmt(err)}`);
      return undefined;
    }
    return this.track(label, value);
  }

  /** Like op, but only logs throws: for calls whose result is uninteresting (enqueue, close…). */
  quietOp(label, thunk) {
    try {
      return thunk();
    } catch (err) {
      this.log(`${label} threw ${fmt(err)}`);
      return undefined;
    }
  }

  /** A promise resolved after n microtask hops (a deterministic wait). */
  ticks(n) {
    let p = Promise.resolve();
    for (let i = 1; i < n; i++) p = p.then(() => {});
    return p;
  }

  /**
   * A promise resolved after a macrotask turn. The harness resolves it when
   * it starts its next macrotask phase, so what follows is marked by that
   * phase's tick chain (a plain setImmediate would run unmarked).
   */
  macrotask() {
    return new Promise((resolve) => this.macrotaskWaiters.push(resolve));
  }

  /**
   * A logged user callback. `name(args)` is logged on each call; then `body`
   * runs and `mode` (see MODES) decides what the callback returns. With
   * `lateBy`, a synchronous callback or one in an asynchronous mode settles
   * that many turns later (a synchronous one returns a promise then, as a
   * slower callback would), and one that throws rejects that many turns
   * later instead (the judge's race witnesses,
   * tools/ordering/judge-programs.ts).
   */
  fn(name, mode = 'sync', body = undefined, lateBy = 0) {
    // The judge reads `<owner>.<callback>(args)` lines back (tools/ordering/projections.ts).
    if (!CALLBACK_NAME.test(name)) throw new Error(`callback name '${name}' must be words joined by '.' (owner.callback)`);
    const t = this;
    return function callback(...args) {
      t.log(`${name}(${fmtArgs(args)})`);
      const result = body ? body.apply(this, args) : undefined;
      if (lateBy > 0 && DELAYABLE_MODES.has(mode)) return t.ticks(lateBy).then(() => t.outcome(name, mode, result));
      return t.outcome(name, mode, result);
    };
  }

  /** What a callback in `mode` hands back to the lib. */
  outcome(name, mode, bodyResult) {
    const t = this;
    switch (mode) {
      case 'sync': return bodyResult;
      case 'async': return Promise.resolve(bodyResult);
      case 'late': return this.ticks(3).then(() => bodyResult);
      case 'throw': throw new Error(`${name} throws`);
      case 'reject': return Promise.reject(new Error(`${name} rejects`));
      case 'thenable': return {
        then(resolve) {
          t.log(`${name} thenable.then called`);
          resolve(bodyResult);
        },
      };
      case 'thenable-reject': return {
        then(resolve, reject) {
          t.log(`${name} thenable.then called`);
          reject(new Error(`${name} thenable rejects`));
        },
      };
      case 'then-getter': return {
        get then() {
          t.log(`${name} result.then read`);
          return undefined;
        },
      };
      case 'then-getter-fn': return {
        get then() {
          t.log(`${name} result.then read`);
          return (resolve) => {
            t.log(`${name} result.then called`);
            resolve(bodyResult);
          };
        },
      };
      case 'value': return 42;
      case 'never': return new Promise(() => {});
      default: throw new Error(`unknown callback mode '${mode}' (modes: ${MODES.join(', ')})`);
    }
  }

  /** A strategy object: `size` logs its calls and returns `sizeOf(chunk)`. */
  strategy(highWaterMark, sizeOf = undefined) {
    const strategy = {};
    if (highWaterMark !== undefined) strategy.highWaterMark = highWaterMark;
    if (sizeOf) {
      strategy.size = (chunk) => {
        const size = sizeOf(chunk);
        this.log(`size(${fmt(chunk)}) -> ${fmt(size)}`);
        return size;
      };
    }
    return strategy;
  }

  /** Reads `reader` to the end (or `max` reads), logging every result. */
  async drain(reader, label = 'read', max = 50) {
    for (let i = 0; i < max; i++) {
      const r = this.serial(label);
      let result;
      try {
        result = await this.track(r, reader.read());
      } catch {
        return;
      }
      if (result.done) return;
    }
    this.log(`${label}: stopped after ${max} reads`);
  }
}

/**
 * Runs one scenario body to quiescence and resolves to its log lines.
 * `body(t)` may return a promise; its settlement is itself logged.
 */
export function runScenario(id, body) {
  const t = new Context(id);
  current = t;
  registerStreamsWith(t.streams);
  return new Promise((finish) => {
    let settled = false;
    let startedBy = 'start'; // how the running phase began: start | nextTick | macrotask
    let phases = 0;

    const step = () => {
      t.tick++;
      t.quiet++;
      if (t.quiet > QUIET || t.tick > MAX_PHASE_TICKS) endPhase();
      else queueMicrotask(step);
    };

    // Events between the end of one chain and the start of the next (a
    // nextTick callback, a macrotask) are logged at tick 0 of the next phase.
    const startPhase = (how) => () => {
      startedBy = how;
      queueMicrotask(step);
      if (how === 'macrotask') for (const resolve of t.macrotaskWaiters.splice(0)) resolve();
    };

    const endPhase = () => {
      const quiet = t.phaseEvents === 0;
      t.phase++;
      t.tick = 0;
      t.quiet = 0;
      t.phaseEvents = 0;
      if (startedBy === 'macrotask' && quiet && t.macrotaskWaiters.length === 0) return done();
      if (++phases >= MAX_PHASES) {
        t.log(`(cut off after ${MAX_PHASES} phases: still busy)`);
        return done();
      }
      // After a quiet nextTick phase, give macrotasks one turn; else let
      // the nextTick queue (which the chain held back) run first.
      if (startedBy === 'nextTick' && quiet) setImmediate(startPhase('macrotask'));
      else process.nextTick(startPhase('nextTick'));
    };

    const done = () => {
      if (!settled) t.log('(body still pending)');
      for (const line of t.streams.finalStates()) t.log(line);
      t.sealed = true;
      if (current === t) {
        current = null;
        registerStreamsWith(null);
      }
      finish(t.lines);
    };

    t.phaseEvents = 0;
    queueMicrotask(step);
    let result;
    try {
      result = body(t);
    } catch (err) {
      t.log(`body threw ${fmt(err)}`);
      settled = true;
      return;
    }
    Promise.resolve(result).then(
      () => { settled = true; t.log('body done'); },
      (err) => { settled = true; t.log(`body rejected ${fmt(err)}`); });
  });
}
