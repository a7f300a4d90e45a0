'use strict';
// Runs a directory of `internal/webstreams/*` lib JS inside a stock Node
// release binary, in place of the builtins compiled into it.
//
//   WEBSTREAMS_LIB=<lib dir> node --expose-internals --require register.cjs …
//
// <lib dir> holds `manifest.json` and `internal/webstreams/<module>.js`
// (written by `make base` / `make build`). Every module is compiled the way
// Node's own loader compiles builtins (same six parameters) and installed on
// its BuiltinModule entry before anything has loaded it, so the globals,
// `node:stream/web`, undici's Response/fetch and every Worker thread run it.
// Plain JS on purpose: nothing here needs a build step at run time.

const fs = require('node:fs');
const path = require('node:path');
const vm = require('node:vm');
const workerThreads = require('node:worker_threads');

const kPrefix = 'internal/webstreams/';
// Must match the parameters of BuiltinLoader::LookupAndCompile().
const kParameters = ['exports', 'require', 'module', 'process', 'internalBinding', 'primordials'];

function die(message) {
  const text = `webstreams-overlay: ${message}`;
  if (workerThreads.isMainThread) {
    process.stderr.write(`${text}\n`);
    process.exit(2);
  }
  throw new Error(text);
}

function loadInternals() {
  // internal/test/binding warns once on load, and when loaded during
  // preload it also defines two globals; neither may leak to user code
  // (Node's test/common checks for unexpected globals).
  const { emitWarning } = process;
  const hadGlobals = 'internalBinding' in globalThis || 'primordials' in globalThis;
  process.emitWarning = () => {};
  let testBinding;
  try {
    testBinding = require('internal/test/binding');
  } catch {
    die('the runtime needs --expose-internals (use bin/node-patched or bin/node-base)');
  } finally {
    process.emitWarning = emitWarning;
  }
  if (!hadGlobals) {
    delete globalThis.internalBinding;
    delete globalThis.primordials;
  }
  const { loadBuiltinModule } = require('internal/modules/helpers');
  const BuiltinModule = loadBuiltinModule('internal/test/binding').constructor;
  return { ...testBinding, BuiltinModule };
}

function readManifest(libDir) {
  if (!libDir) die('WEBSTREAMS_LIB is not set: it must name a lib directory');
  let text;
  try {
    text = fs.readFileSync(path.join(libDir, 'manifest.json'), 'utf8');
  } catch (err) {
    die(`cannot read lib directory ${libDir} (${err.code || err.message}); ` +
        'run `make base` or `make build` first');
  }
  const manifest = JSON.parse(text);
  const allowMismatch = process.env.WEBSTREAMS_ALLOW_VERSION_MISMATCH === '1';
  if (manifest.nodeVersion !== process.version && !allowMismatch) {
    die(`${libDir} was made for Node ${manifest.nodeVersion} but this binary is ` +
        `${process.version} (${process.execPath}); use the pinned Node or ` +
        'set WEBSTREAMS_ALLOW_VERSION_MISMATCH=1');
  }
  if (!Array.isArray(manifest.modules) || manifest.modules.length === 0) {
    die(`${libDir}/manifest.json lists no modules`);
  }
  return manifest;
}

function compile(file) {
  let source;
  try {
    source = fs.readFileSync(file, 'utf8');
  } catch (err) {
    die(`cannot read ${file} (${err.code || err.message})`);
  }
  try {
    return vm.compileFunction(source, kParameters, { filename: file });
  } catch (err) {
    // The stack of a SyntaxError starts with `file:line`, the line and a caret.
    die(`cannot compile ${file}:\n${err.stack}`);
  }
}

function inject(libDir, manifest, { BuiltinModule, internalBinding, primordials }) {
  const requireBuiltin = (id) => {
    const mod = BuiltinModule.map.get(id);
    if (!mod) throw new TypeError(`Missing internal module '${id}'`);
    return mod.compileForInternalLoader();
  };

  for (const id of manifest.modules) {
    if (!id.startsWith(kPrefix)) die(`${libDir}: ${id} is not an ${kPrefix}* module`);
    let mod = BuiltinModule.map.get(id);
    if (mod === undefined) {
      // A module the series adds to Node.
      mod = new BuiltinModule(id);
      BuiltinModule.map.set(id, mod);
    } else if (mod.loaded || mod.loading) {
      die(`${id} was loaded before injection; put --require ${__filename} first`);
    }
    const fn = compile(path.join(libDir, `${id}.js`));
    // Mirrors BuiltinModule.prototype.compileForInternalLoader.
    mod.compileForInternalLoader = function compileForInternalLoader() {
      if (this.loaded || this.loading) return this.exports;
      this.loading = true;
      try {
        fn(this.exports, requireBuiltin, this, process, internalBinding, primordials);
        this.loaded = true;
      } finally {
        this.loading = false;
      }
      return this.exports;
    };
  }
}

// Workers given their own execArgv do not inherit --require; give it back,
// and the lib dir too when the Worker gets its own env.
function propagateToWorkers(libDir) {
  const { Worker: BaseWorker, SHARE_ENV } = workerThreads;
  if (BaseWorker.webstreamsInjected) return;
  const self = __filename;
  // Named Worker so that stack traces and `.name` read as before.
  const Worker = class Worker extends BaseWorker {
    constructor(filename, options) {
      if (options !== null && typeof options === 'object') {
        options = { ...options };
        if (Array.isArray(options.execArgv)) {
          options.execArgv = ['--expose-internals', '--require', self, ...options.execArgv];
        }
        if (options.env !== undefined && options.env !== SHARE_ENV && options.env !== null) {
          options.env = { ...options.env, WEBSTREAMS_LIB: libDir };
        }
      }
      super(filename, options);
    }
  };
  Object.defineProperty(Worker, 'webstreamsInjected', { value: true });
  workerThreads.Worker = Worker;
}

function main() {
  const libDir = process.env.WEBSTREAMS_LIB && path.resolve(process.env.WEBSTREAMS_LIB);
  const internals = loadInternals();
  const manifest = readManifest(libDir);
  inject(libDir, manifest, internals);
  propagateToWorkers(libDir);
}

main();
