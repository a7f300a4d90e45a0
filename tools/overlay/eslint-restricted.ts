// What Node's configs forbid through ESLint's stock no-restricted-syntax and no-restricted-globals
// (tools/eslint/eslint.config_utils.mjs, lib/ and test/eslint.config_partial.mjs): selectors and names,
// for eslint.ts to hand to ESLint, so they match exactly as Node's do.

type Restriction = { selector: string; message: string };

const ASSERT_OK = ':not([callee.property.name=\'ok\']):not([callee.property.name=\'fail\'])' +
  ':not([callee.property.name=\'ifError\'])';
const calls = (name: string) => `CallExpression:matches([callee.name='${name}'], [callee.property.name='${name}'])`;
/** A literal first argument where the second is not a literal, object, array or unary expression. */
const EXPECTED_FIRST = "[arguments.0.type='Literal']:not([arguments.1.type='Literal'])" +
  ":not([arguments.1.type='ObjectExpression']):not([arguments.1.type='ArrayExpression'])" +
  ":not([arguments.1.type='UnaryExpression'])";
const LITERAL_OR_UNDEFINED = ":matches([arguments.1.type='Literal']:not([arguments.1.regex])," +
  " [arguments.1.type='Identifier'][arguments.1.name='undefined'])";

/** Every file of Node's tree. */
const ALL: Restriction[] = [
  { selector: "CallExpression[callee.name='setInterval'][arguments.length<2]", message: 'give setInterval() a delay' },
  { selector: 'ThrowStatement > CallExpression[callee.name=/Error$/]', message: 'throw new X(), not X()' },
  { selector: "CallExpression[callee.property.name='substr']", message: 'use slice() or substring(), not substr()' },
];

export const LIB_RESTRICTED_SYNTAX: Restriction[] = [
  ...ALL,
  { selector: "CallExpression[callee.name='setTimeout'][arguments.length<2]", message: 'give setTimeout() a delay' },
  { selector: `CallExpression[callee.object.name='assert']${ASSERT_OK}`,
    message: 'only simple assertions in lib: assert.ok(), fail() or ifError()' },
  { selector: "CallExpression[callee.property.name='btoa'], CallExpression[callee.name='btoa']",
    message: "btoa() is Latin-1 only: use Buffer.from(s).toString('base64')" },
  { selector: 'NewExpression[callee.name=/Error$/]:not([callee.name=/^(AssertionError|NghttpError|AbortError|NodeAggregateError)$/])',
    message: 'use an error from internal/errors' },
  { selector: "CallExpression[callee.object.name='Error'][callee.property.name='captureStackTrace']",
    message: 'use hideStackFrames from internal/errors' },
  { selector: "AssignmentExpression:matches([left.object.name='Error']):matches([left.name='prepareStackTrace'], [left.property.name='prepareStackTrace'])",
    message: 'use overrideStackTrace from internal/errors' },
  { selector: "ThrowStatement > NewExpression[callee.name=/^ERR_[A-Z_]+$/] > ObjectExpression:first-child:not(:has([key.name='message']):has([key.name='code']):has([key.name='syscall']))",
    message: "a SystemError's context has code, syscall and message" },
];

export const TEST_RESTRICTED_SYNTAX: Restriction[] = [
  ...ALL,
  { selector: `${calls('deepStrictEqual')}${LITERAL_OR_UNDEFINED}`, message: 'use strictEqual for a literal or undefined' },
  { selector: `${calls('notDeepStrictEqual')}${LITERAL_OR_UNDEFINED}`, message: 'use notStrictEqual for a literal or undefined' },
  { selector: `${calls('deepStrictEqual')}[arguments.2.type='Literal']`, message: 'no literal as the message of deepStrictEqual()' },
  { selector: calls('doesNotThrow'), message: 'no assert.doesNotThrow(): run the code and say why in a comment' },
  { selector: calls('doesNotReject'), message: 'no assert.doesNotReject(): run the code and say why in a comment' },
  { selector: `${calls('rejects')}[arguments.length<2]`, message: 'assert.rejects() takes at least two arguments' },
  { selector: "CallExpression[callee.property.name='strictEqual'][arguments.2.type='Literal']",
    message: 'no literal as the message of strictEqual()' },
  { selector: `${calls('throws')}[arguments.1.type='Literal']:not([arguments.1.regex])`,
    message: 'give assert.throws() an object as its second argument' },
  { selector: `${calls('throws')}[arguments.length<2]`, message: 'assert.throws() takes at least two arguments' },
  ...['notDeepStrictEqual', 'notStrictEqual', 'deepStrictEqual', 'strictEqual'].map((name) => ({
    selector: `${calls(name)}${EXPECTED_FIRST}`, message: 'the first argument is the actual value, not the expected one',
  })),
  { selector: "CallExpression[callee.name='isNaN']", message: 'use Number.isNaN()' },
  { selector: "VariableDeclarator > CallExpression:matches([callee.name='debuglog'], [callee.property.name='debuglog']):not([arguments.0.value='test'])",
    message: "name a test's debuglog 'test'" },
  { selector: 'CallExpression:matches([callee.object.name="common"][callee.property.name=/^must(Not)?Call/],' +
      '[callee.name="mustCall"],[callee.name="mustCallAtLeast"],[callee.name="mustNotCall"])' +
      '>:first-child[type=/FunctionExpression$/][body.body.length=0]',
    message: 'omit the empty function' },
  { selector: "ExpressionStatement>CallExpression:matches([callee.name='rejects'], [callee.object.name='assert'][callee.property.name='rejects'])",
    message: 'await assert.rejects() (or end it in .then(common.mustCall())), or a promise that never settles passes' },
];

/** Globals lib code takes from their modules (lib/'s no-restricted-globals). */
export const LIB_RESTRICTED_GLOBALS: string[] = [
  'AbortController', 'AbortSignal', 'AsyncDisposableStack', 'atob', 'Blob', 'BroadcastChannel', 'btoa', 'Buffer',
  'ByteLengthQueuingStrategy', 'clearImmediate', 'clearInterval', 'clearTimeout', 'CloseEvent', 'CompressionStream',
  'console', 'CountQueuingStrategy', 'crypto', 'Crypto', 'CryptoKey', 'CustomEvent', 'DecompressionStream',
  'DisposableStack', 'DOMException', 'ErrorEvent', 'Event', 'EventSource', 'EventTarget', 'fetch', 'File',
  'Float16Array', 'FormData', 'global', 'globalThis', 'Headers', 'Intl', 'Iterator', 'MessageChannel', 'MessageEvent',
  'MessagePort', 'Navigator', 'navigator', 'performance', 'PerformanceEntry', 'PerformanceMark', 'PerformanceMeasure',
  'PerformanceObserver', 'PerformanceObserverEntryList', 'PerformanceResourceTiming', 'queueMicrotask',
  'ReadableByteStreamController', 'ReadableStream', 'ReadableStreamBYOBReader', 'ReadableStreamBYOBRequest',
  'ReadableStreamDefaultController', 'ReadableStreamDefaultReader', 'Request', 'Response', 'setImmediate',
  'setInterval', 'setTimeout', 'ShadowRealm', 'SharedArrayBuffer', 'structuredClone', 'SubtleCrypto', 'TextDecoder',
  'TextDecoderStream', 'TextEncoder', 'TextEncoderStream', 'TransformStream', 'TransformStreamDefaultController',
  'URL', 'URLSearchParams', 'WebAssembly', 'WritableStream', 'WritableStreamDefaultController',
  'WritableStreamDefaultWriter',
];
