// Flags: --allow-natives-syntax --expose-internals --no-warnings
'use strict';

// The closures a stream made by Node keeps for its whole life are in the
// young generation like the stream itself: Readable.toWeb()'s pull() and
// the MessagePort handlers of a transferred stream. V8 allocates a
// function literal assigned straight to a property in the old generation,
// where, once dead, it would keep its stream alive until the next full
// garbage collection.

const common = require('../common');
common.skipIfInspectorDisabled();

const assert = require('assert');
const { Session } = require('inspector');
const { Readable } = require('stream');
const { MessageChannel } = require('worker_threads');
const { kState } = require('internal/webstreams/util');
const {
  CrossRealmTransformReadableSource,
  CrossRealmTransformWritableSink,
} = require('internal/webstreams/transfer');

// Compiled from a string: Node's lint cannot parse V8's natives syntax.
const isYoung = new Function('value', 'return %InYoungGeneration(value)');

function inYoungGeneration(value) {
  assert.strictEqual(typeof value, 'function');
  return isYoung(value);
}

const session = new Session();
session.connect();

function post(method, params) {
  let result;
  session.post(method, params, common.mustSucceed((value) => {
    result = value;
  }));
  return result;
}

function ownProperties(objectId) {
  return post('Runtime.getProperties', { objectId, ownProperties: true });
}

// The value `name` has in the scopes `fn` closes over, through the
// inspector, which can read a closure's [[Scopes]].
function capturedValue(fn, name) {
  globalThis.probe = fn;
  const { result } = post('Runtime.evaluate', { expression: 'globalThis.probe' });
  delete globalThis.probe;
  const scopes = ownProperties(result.objectId).internalProperties
    .find((property) => property.name === '[[Scopes]]');
  for (const scope of ownProperties(scopes.value.objectId).result) {
    if (scope.value?.objectId === undefined) continue;
    const variable = ownProperties(scope.value.objectId).result
      .find((property) => property.name === name);
    if (variable === undefined) continue;
    globalThis.probe = undefined;
    post('Runtime.callFunctionOn', {
      objectId: variable.value.objectId,
      functionDeclaration: 'function() { globalThis.probe = this; }',
    });
    const value = globalThis.probe;
    delete globalThis.probe;
    return value;
  }
  assert.fail(`${name} is not in the scopes of ${fn.name || 'the function'}`);
}

{
  // The controller's pull algorithm wraps the source's pull() as `fn`.
  const readable = new Readable({ read() {} });
  const stream = Readable.toWeb(readable);
  const pull = capturedValue(stream[kState].controller[kState].pullAlgorithm, 'fn');
  assert.strictEqual(pull.name, 'pull');
  assert(inYoungGeneration(pull), 'Readable.toWeb() pull()');
  readable.destroy();
}

{
  const { port1, port2 } = new MessageChannel();
  new CrossRealmTransformReadableSource(port1, false);
  assert(inYoungGeneration(port1.onmessage), 'transferred ReadableStream onmessage');
  assert(inYoungGeneration(port1.onmessageerror), 'transferred ReadableStream onmessageerror');
  new CrossRealmTransformWritableSink(port2, false);
  assert(inYoungGeneration(port2.onmessage), 'transferred WritableStream onmessage');
  assert(inYoungGeneration(port2.onmessageerror), 'transferred WritableStream onmessageerror');
  port1.close();
  port2.close();
}

session.disconnect();
