'use strict';
// The project's own implementation of the part of Node's benchmark/common.js
// API that benchmark files use: createBenchmark(main, configs, options),
// bench.start(), bench.end(operations). The files in benchmark/webstreams/
// require('../common.js') and use nothing else, so they run unchanged inside
// a Node checkout's benchmark/ folder against upstream's common.js.
//
// Behaviour kept compatible with upstream (so compare.js, run.js and our
// tools/compare.ts can drive either):
// - configs: key -> array of values (or one value); every combination runs,
//   each in its own child process (fork), first key outermost.
// - arguments `key=value` select values (repeat a key for several values);
//   `--set key=value` is accepted too. `--test` runs one tiny configuration.
// - NODE_RUN_BENCHMARK_FN in the environment: run only the first selected
//   configuration, in this process.
// - output: a forked child reports { type: 'report', name, conf, rate, time }
//   over IPC; otherwise one line per configuration on stdout, e.g.
//   `webstreams/tee.js type="normal" n=100000: 1,234,567.8`.
// Additions: NODE_BENCHMARK_CLOCK=cpu measures the main thread's CPU time
// (process.threadCpuUsage) instead of wall time, so time the process spends
// descheduled on a shared machine does not count (work on V8's helper
// threads does not count either); NODE_BENCHMARK_LIST_CONFIGS=1 prints the keys, the selected
// configurations and the file's own Node flags (options.flags, which a forked
// child gets) as JSON instead of running them (tools/compare.ts uses it);
// unknown keys (unless NODE_BENCHMARK_ALLOW_EXTRA=1) and non-numeric values
// for numeric keys are errors; a run that never calls bench.end() (a broken
// stream that stalls) exits non-zero.

const childProcess = require('child_process');
const path = require('path');

// [seconds, nanoseconds] now, and since an earlier reading, like process.hrtime.
const clocks = {
  wall: (since) => process.hrtime(since),
  cpu: (since) => {
    const { user, system } = process.threadCpuUsage();
    const ns = (user + system) * 1000;
    const diff = since ? ns - (since[0] * 1e9 + since[1]) : ns;
    return [Math.floor(diff / 1e9), diff % 1e9];
  },
};
const clockName = process.env.NODE_BENCHMARK_CLOCK || 'wall';
const clock = clocks[clockName];

class Benchmark {
  #started = false;
  #ended = false;
  #time = [0, 0];

  constructor(fn, configs, options = {}) {
    if (typeof fn !== 'function') throw new TypeError('createBenchmark: main must be a function');
    if (!clock) fail(`NODE_BENCHMARK_CLOCK must be wall or cpu, got "${clockName}"`);
    if (clockName === 'cpu' && typeof process.threadCpuUsage !== 'function') {
      fail(`NODE_BENCHMARK_CLOCK=cpu needs process.threadCpuUsage() (Node >= 23.9), this is ${process.version}`);
    }
    if (configs === null || typeof configs !== 'object') {
      throw new TypeError('createBenchmark: configs must be an object');
    }
    // Like upstream: the file's path relative to benchmark/, e.g. webstreams/tee.js.
    this.name = path.relative(__dirname, require.main.filename).split(path.sep).join('/');
    this.flags = process.env.NODE_BENCHMARK_FLAGS ? process.env.NODE_BENCHMARK_FLAGS.split(/\s+/) : [];
    this.fileFlags = options.flags ?? [];
    this.flags = this.flags.concat(this.fileFlags);

    const { selected, extra } = parseArgs(process.argv.slice(2), configs, options);
    this.options = selected;
    this.extra_options = extra;
    this.queue = crossProduct(selected);
    this.config = this.queue[0];

    process.nextTick(() => {
      if (process.env.NODE_BENCHMARK_LIST_CONFIGS === '1') {
        const listing = { name: this.name, keys: Object.keys(this.options), configs: this.queue, flags: this.fileFlags };
        process.stdout.write(`${JSON.stringify(listing)}\n`);
      } else if (Object.prototype.hasOwnProperty.call(process.env, 'NODE_RUN_BENCHMARK_FN')) {
        this.#runHere(fn);
      } else {
        this.#runEach();
      }
    });
  }

  #runHere(fn) {
    // Upstream's in-process run does not add the file's flags either; say
    // so instead of failing later on, e.g., a missing globalThis.gc.
    const given = new Set([...process.execArgv, ...nodeOptionsFlags()].map(flagSpelling));
    const missing = this.fileFlags.filter((flag) => !given.has(flagSpelling(flag)));
    if (missing.length > 0) {
      fail(`needs the Node flag(s) ${missing.join(' ')} (its createBenchmark options.flags): ` +
        'pass them to node, or run it without NODE_RUN_BENCHMARK_FN');
    }
    // A broken implementation can stall: every promise pending, the event
    // loop empty, the process about to exit 0 without a result or before
    // main() got to its checks.
    let settled = true;
    process.on('exit', (code) => {
      if (code !== 0) return;
      if (!this.#ended) {
        process.stderr.write(`${this.name}: the benchmark finished without calling bench.end()\n`);
        process.exitCode = 1;
      } else if (!settled) {
        process.stderr.write(`${this.name}: main() never finished (a stream stalled before its checks ran)\n`);
        process.exitCode = 1;
      }
    });
    const result = fn(this.config);
    if (result && typeof result.then === 'function') {
      settled = false;
      result.then(() => { settled = true; }, (err) => { settled = true; throw err; });
    }
  }

  // One child process per configuration, in order, like upstream.
  #runEach() {
    if (process.send) {
      process.send({ type: 'config', name: this.name, queueLength: this.queue.length });
    }
    const next = (index) => {
      const config = this.queue[index];
      const args = [];
      for (const [key, value] of Object.entries(config)) args.push(`${key}=${value}`);
      for (const [key, value] of Object.entries(this.extra_options)) args.push(`${key}=${value}`);
      const child = childProcess.fork(require.main.filename, args, {
        env: { ...process.env, NODE_RUN_BENCHMARK_FN: '' },
        execArgv: this.flags.concat(process.execArgv),
      });
      child.on('message', sendResult);
      child.on('close', (code, signal) => {
        if (code || signal) {
          process.stderr.write(`${this.name}: configuration${formatConf(config)} failed (${code ?? signal})\n`);
          process.exit(code || 1);
        }
        if (index + 1 < this.queue.length) next(index + 1);
      });
    };
    next(0);
  }

  start() {
    if (this.#started) throw new Error('Called start more than once in a single benchmark');
    this.#started = true;
    this.#time = clock();
  }

  end(operations) {
    // Read the clock first; check afterwards.
    const elapsed = clock(this.#time);
    if (!this.#started) throw new Error('called end without start');
    if (this.#ended) throw new Error('called end multiple times');
    if (typeof operations !== 'number') throw new Error('called end() without specifying operation count');
    if (!process.env.NODEJS_BENCHMARK_ZERO_ALLOWED && operations <= 0) {
      throw new Error('called end() with operation count <= 0');
    }
    if (elapsed[0] === 0 && elapsed[1] === 0) {
      if (!process.env.NODEJS_BENCHMARK_ZERO_ALLOWED) throw new Error('insufficient clock precision for short benchmark');
      elapsed[1] = 1;
    }
    this.#ended = true;
    const time = elapsed[0] + elapsed[1] / 1e9;
    this.report(operations / time, elapsed);
  }

  report(rate, elapsed) {
    sendResult({ name: this.name, conf: this.config, rate, time: elapsed[0] + elapsed[1] / 1e9, type: 'report' });
  }
}

// Node and V8 read `_` and `-` alike in a flag's name (--expose_gc is
// --expose-gc), not in its value.
function flagSpelling(flag) {
  const eq = flag.indexOf('=');
  const name = eq === -1 ? flag : flag.slice(0, eq);
  return name.replaceAll('_', '-') + (eq === -1 ? '' : flag.slice(eq));
}

// The flags NODE_OPTIONS gives the process (they are not in execArgv).
function nodeOptionsFlags() {
  return (process.env.NODE_OPTIONS ?? '').split(/\s+/).filter((token) => token.startsWith('--'));
}

function fail(message) {
  process.stderr.write(`${path.relative(__dirname, require.main.filename)}: ${message}\n`);
  process.exit(1);
}

// argv -> the selected values per key (configs with CLI choices applied)
// plus extra key=value pairs that are not configuration keys.
function parseArgs(argv, configs, options) {
  const declared = {};
  for (const [key, value] of Object.entries(configs)) {
    const values = Array.isArray(value) ? value : [value];
    if (values.length === 0) fail(`configuration "${key}" has no values`);
    for (const v of values) {
      if (typeof v !== 'number' && typeof v !== 'string') fail(`configuration "${key}" had type ${typeof v}`);
      // Mixed types could not be parsed back from the command line.
      if (typeof v !== typeof values[0]) fail(`configuration "${key}" has mixed types`);
    }
    declared[key] = values;
  }

  const cli = {};
  const extra = {};
  const args = [...argv];
  const testIndex = args.indexOf('--test');
  if (testIndex !== -1) {
    // Upstream's test mode: one configuration, numbers cut to 1, then the
    // file's own options.test overrides.
    args.splice(testIndex, 1);
    for (const [key, values] of Object.entries(declared)) {
      let value = values[0];
      if (typeof value === 'number') {
        if (key === 'dur' || key === 'duration') value = 0.05;
        else if (value > 1) value = 1;
      }
      cli[key] = [value];
    }
    for (const [key, value] of Object.entries(options.test || {})) {
      cli[key] = Array.isArray(value) ? value : [value];
    }
  }

  const fromCli = {};
  for (let i = 0; i < args.length; i++) {
    let arg = args[i];
    if (arg === '--set') {
      if (i + 1 >= args.length) fail('--set needs key=value');
      arg = args[++i];
    } else if (arg.startsWith('--set=')) {
      arg = arg.slice('--set='.length);
    }
    const match = /^([^=]+)=([\s\S]*)$/.exec(arg);
    if (!match) fail(`bad argument: ${arg} (expected key=value)`);
    const [, key, raw] = match;
    if (!Object.prototype.hasOwnProperty.call(declared, key)) {
      // Upstream passes unknown keys through (e.g. benchmarker=); a typo in
      // a configuration key would silently run everything, so say which.
      if (process.env.NODE_BENCHMARK_ALLOW_EXTRA !== '1' && !/^benchmarker$/.test(key)) {
        fail(`unknown configuration key "${key}" (keys: ${Object.keys(declared).join(', ') || 'none'})`);
      }
      extra[key] = raw;
      continue;
    }
    let value = raw;
    if (typeof declared[key][0] === 'number') {
      value = raw.trim() === '' ? NaN : +raw;
      if (Number.isNaN(value)) fail(`configuration "${key}" is numeric, got "${raw}"`);
    }
    (fromCli[key] ||= []).push(value);
  }
  return { selected: { ...declared, ...cli, ...fromCli }, extra };
}

// Every combination, depth first with the first key outermost. Like upstream,
// each configuration object lists the innermost key first (so a file with
// { n, type } prints `type="normal" n=100000`).
function crossProduct(options) {
  const keys = Object.keys(options);
  const queue = [];
  const walk = (index, previous) => {
    const key = keys[index];
    for (const value of options[key]) {
      const config = { [key]: value, ...previous };
      if (index + 1 < keys.length) walk(index + 1, config);
      else queue.push(config);
    }
  };
  if (keys.length > 0) walk(0, {});
  else queue.push({});
  return queue;
}

function formatConf(conf) {
  let text = '';
  for (const key of Object.keys(conf)) text += ` ${key}=${JSON.stringify(conf[key])}`;
  return text;
}

// Upstream's line: name, configuration (JSON values), rate with thousands separators.
function formatResult(data) {
  const [whole, fraction] = data.rate.toString().split('.');
  const grouped = whole.replace(/(\d)(?=(?:\d\d\d)+(?!\d))/g, '$1,');
  return `${data.name}${formatConf(data.conf)}: ${fraction ? `${grouped}.${fraction}` : grouped}`;
}

function sendResult(data) {
  if (process.send) process.send(data);
  else console.log(formatResult(data));
}

module.exports = {
  Benchmark,
  createBenchmark(fn, configs, options) {
    return new Benchmark(fn, configs, options);
  },
  sendResult,
};
