// Node's lint, the stock part: ESLint itself runs the built-in and @stylistic rules Node's config
// enables (eslint.config.mjs at the root, lib/ and test/eslint.config_partial.mjs), with Node's options,
// and the selectors and names of its no-restricted-syntax and no-restricted-globals (eslint-restricted.ts).
// Only Node's own rules (tools/eslint-rules, not in the fixtures) are re-implemented, in lint.ts and
// lint-test.ts.
import js from '@eslint/js';
import stylistic from '@stylistic/eslint-plugin';
import { Linter } from 'eslint';
import jsdoc from 'eslint-plugin-jsdoc';
import globals from 'globals';
import { LIB_RESTRICTED_GLOBALS, LIB_RESTRICTED_SYNTAX, TEST_RESTRICTED_SYNTAX } from './eslint-restricted.ts';
import type { LintFinding } from './lint.ts';

type Rules = Linter.RulesRecord;

/** The web globals the root config declares for every file. */
const ROOT_GLOBALS: NonNullable<Linter.LanguageOptions['globals']> = Object.fromEntries([
  'ByteLengthQueuingStrategy', 'CompressionStream', 'CountQueuingStrategy', 'CustomEvent', 'crypto', 'Crypto',
  'CryptoKey', 'DecompressionStream', 'EventSource', 'fetch', 'Float16Array', 'FormData', 'navigator',
  'ReadableStream', 'ReadableStreamDefaultReader', 'ReadableStreamBYOBReader', 'ReadableStreamBYOBRequest',
  'ReadableByteStreamController', 'ReadableStreamDefaultController', 'Response', 'TextDecoderStream',
  'TextEncoderStream', 'TransformStream', 'TransformStreamDefaultController', 'ShadowRealm', 'SubtleCrypto',
  'WritableStream', 'WritableStreamDefaultWriter', 'WritableStreamDefaultController', 'WebSocket',
].map((name) => [name, 'readonly']));

/** The root config's rules, which hold for every JS file of Node's tree. */
const ROOT_RULES: Rules = {
  'accessor-pairs': 'error',
  'array-callback-return': 'error',
  'block-scoped-var': 'error',
  'capitalized-comments': ['error', 'always', {
    line: {
      ignorePattern: '.{0,20}$|[a-z]+ ?[0-9A-Z_.(/=:[#-]|std|http|ssh|ftp',
      ignoreInlineComments: true,
      ignoreConsecutiveComments: true,
    },
    block: { ignorePattern: '.*' },
  }],
  'logical-assignment-operators': ['error', 'always', { enforceForIfStatements: true }],
  'default-case-last': 'error',
  'dot-notation': 'error',
  'eqeqeq': ['error', 'smart'],
  'func-name-matching': ['error', { considerPropertyDescriptor: true }],
  'func-style': ['error', 'declaration', { allowArrowFunctions: true }],
  'no-constant-condition': ['error', { checkLoops: false }],
  'no-constructor-return': 'error',
  'no-duplicate-imports': 'error',
  'no-else-return': 'error',
  'no-lonely-if': 'error',
  'no-mixed-requires': 'error',
  'no-new-require': 'error',
  'no-path-concat': 'error',
  'no-proto': 'error',
  'no-redeclare': ['error', { builtinGlobals: false }],
  'no-restricted-modules': ['error', 'sys'],
  'no-restricted-properties': ['error',
    { object: 'assert', property: 'deepEqual', message: 'Use `assert.deepStrictEqual()`.' },
    { object: 'assert', property: 'notDeepEqual', message: 'Use `assert.notDeepStrictEqual()`.' },
    { object: 'assert', property: 'equal', message: 'Use `assert.strictEqual()` rather than `assert.equal()`.' },
    { object: 'assert', property: 'notEqual', message: 'Use `assert.notStrictEqual()` rather than `assert.notEqual()`.' },
    { property: '__defineGetter__', message: '__defineGetter__ is deprecated.' },
    { property: '__defineSetter__', message: '__defineSetter__ is deprecated.' },
    { property: 'webcrypto', message: 'Use `globalThis.crypto`.' },
  ],
  'no-self-compare': 'error',
  'no-template-curly-in-string': 'error',
  'no-throw-literal': 'error',
  'no-undef': ['error', { typeof: true }],
  'no-undef-init': 'error',
  'no-unused-expressions': ['error', { allowShortCircuit: true }],
  'no-unused-vars': ['error', { args: 'none', caughtErrors: 'all' }],
  'no-use-before-define': ['error', { classes: true, functions: false, variables: false }],
  'no-useless-call': 'error',
  'no-useless-concat': 'error',
  'no-useless-constructor': 'error',
  'no-useless-return': 'error',
  'no-var': 'error',
  'no-void': 'error',
  'one-var': ['error', { initialized: 'never' }],
  'prefer-const': ['error', { ignoreReadBeforeAssign: true }],
  'prefer-object-has-own': 'error',
  'strict': ['error', 'global'],
  'symbol-description': 'error',
  'unicode-bom': 'error',
  'valid-typeof': ['error', { requireStringLiterals: true }],
  'no-inner-declarations': 'off',

  'jsdoc/require-jsdoc': 'off',
  'jsdoc/require-param-description': 'off',
  'jsdoc/newline-after-description': 'off',
  'jsdoc/require-returns-description': 'off',
  'jsdoc/valid-types': 'off',
  'jsdoc/no-defaults': 'off',
  'jsdoc/no-undefined-types': 'off',
  'jsdoc/require-param': 'off',
  'jsdoc/check-tag-names': 'off',
  'jsdoc/require-returns': 'off',
  // Newer than the plugin Node pins: the base has 22 sites and passes Node's lint.
  'jsdoc/reject-any-type': 'off',

  '@stylistic/js/arrow-parens': 'error',
  '@stylistic/js/arrow-spacing': 'error',
  '@stylistic/js/block-spacing': 'error',
  '@stylistic/js/brace-style': ['error', '1tbs', { allowSingleLine: true }],
  '@stylistic/js/comma-dangle': ['error', 'always-multiline'],
  '@stylistic/js/comma-spacing': 'error',
  '@stylistic/js/comma-style': 'error',
  '@stylistic/js/computed-property-spacing': 'error',
  '@stylistic/js/dot-location': ['error', 'property'],
  '@stylistic/js/eol-last': 'error',
  '@stylistic/js/func-call-spacing': 'error',
  '@stylistic/js/indent': ['error', 2, {
    ArrayExpression: 'first',
    CallExpression: { arguments: 'first' },
    FunctionDeclaration: { parameters: 'first' },
    FunctionExpression: { parameters: 'first' },
    MemberExpression: 'off',
    ObjectExpression: 'first',
    SwitchCase: 1,
  }],
  '@stylistic/js/key-spacing': 'error',
  '@stylistic/js/keyword-spacing': 'error',
  '@stylistic/js/linebreak-style': 'error',
  '@stylistic/js/max-len': ['error', {
    code: 120,
    ignorePattern: '^// Flags:',
    ignoreRegExpLiterals: true,
    ignoreTemplateLiterals: true,
    ignoreUrls: true,
    tabWidth: 2,
  }],
  '@stylistic/js/new-parens': 'error',
  '@stylistic/js/no-confusing-arrow': 'error',
  '@stylistic/js/no-extra-parens': ['error', 'functions'],
  '@stylistic/js/no-multi-spaces': ['error', { ignoreEOLComments: true }],
  '@stylistic/js/no-multiple-empty-lines': ['error', { max: 2, maxEOF: 0, maxBOF: 0 }],
  '@stylistic/js/no-tabs': 'error',
  '@stylistic/js/no-trailing-spaces': 'error',
  '@stylistic/js/no-whitespace-before-property': 'error',
  '@stylistic/js/object-curly-newline': 'error',
  '@stylistic/js/object-curly-spacing': ['error', 'always'],
  '@stylistic/js/one-var-declaration-per-line': 'error',
  '@stylistic/js/operator-linebreak': ['error', 'after'],
  '@stylistic/js/padding-line-between-statements': ['error',
    { blankLine: 'always', prev: 'function', next: 'function' }],
  '@stylistic/js/quotes': ['error', 'single', { avoidEscape: true, allowTemplateLiterals: true }],
  '@stylistic/js/quote-props': ['error', 'consistent'],
  '@stylistic/js/rest-spread-spacing': 'error',
  '@stylistic/js/semi': 'error',
  '@stylistic/js/semi-spacing': 'error',
  '@stylistic/js/space-before-blocks': ['error', 'always'],
  '@stylistic/js/space-before-function-paren': ['error', { anonymous: 'never', named: 'never', asyncArrow: 'always' }],
  '@stylistic/js/space-in-parens': 'error',
  '@stylistic/js/space-infix-ops': 'error',
  '@stylistic/js/space-unary-ops': 'error',
  '@stylistic/js/spaced-comment': ['error', 'always', { block: { balanced: true }, exceptions: ['-'] }],
  '@stylistic/js/template-curly-spacing': 'error',
};

/** lib/'s partial config: its module wrapper's parameters are its only globals beyond the language's. */
const LIB: Linter.Config = {
  languageOptions: {
    globals: { require: 'readonly', process: 'readonly', exports: 'readonly', module: 'readonly',
               internalBinding: 'readonly', primordials: 'readonly' },
  },
  rules: {
    'prefer-object-spread': 'error',
    'no-buffer-constructor': 'error',
    'no-restricted-syntax': ['error', ...LIB_RESTRICTED_SYNTAX],
    'no-restricted-globals': ['error', ...LIB_RESTRICTED_GLOBALS],
    'no-restricted-modules': ['error', { name: 'url', message: 'require internal/url' }],
  },
};

/** test/'s partial config, with test/parallel's comma-dangle. */
const TEST: Linter.Config = {
  languageOptions: { globals: { ...globals.node, CloseEvent: true } },
  rules: {
    'multiline-comment-style': ['error', 'separate-lines'],
    'prefer-const': 'error',
    'symbol-description': 'off',
    'no-restricted-syntax': ['error', ...TEST_RESTRICTED_SYNTAX],
    '@stylistic/js/comma-dangle': ['error', {
      arrays: 'always-multiline',
      exports: 'always-multiline',
      functions: 'only-multiline',
      imports: 'always-multiline',
      objects: 'only-multiline',
    }],
  },
};

/** benchmark/'s partial config. */
const BENCHMARK: Linter.Config = {
  languageOptions: { globals: { ...globals.node } },
  rules: { 'prefer-arrow-callback': 'error' },
};

export type Scope = 'lib' | 'test' | 'benchmark';

function configFor(scope: Scope): Linter.Config[] {
  return [
    js.configs.recommended,
    jsdoc.configs['flat/recommended'],
    {
      languageOptions: {
        ecmaVersion: 'latest',
        sourceType: 'script',
        // A CommonJS module's body is a function's: Node's tests return from it to skip.
        parserOptions: { ecmaFeatures: { globalReturn: true } },
        globals: ROOT_GLOBALS,
      },
      linterOptions: { reportUnusedDisableDirectives: 'off' },
      plugins: { '@stylistic/js': stylistic as unknown as NonNullable<Linter.Config['plugins']>[string] },
      rules: ROOT_RULES,
    },
    { lib: LIB, test: TEST, benchmark: BENCHMARK }[scope],
  ];
}

const linter = new Linter({ configType: 'flat' });
const configs = { lib: configFor('lib'), test: configFor('test'), benchmark: configFor('benchmark') };

/** A directive naming one of Node's own rules, which ESLint does not have here (lint.ts and lint-test.ts check them). */
const NODE_CORE_DIRECTIVE = /^Definition for rule 'node-core\/[\w-]+' was not found\.$/;

/**
 * ESLint's findings for one file in the given scope; `file` is its path in Node's tree
 * (`lib/…`, `test/parallel/…` or `benchmark/…`). A file ESLint cannot parse is one finding, `parse`.
 */
export function eslintFindings(file: string, text: string, scope: Scope): LintFinding[] {
  return linter.verify(text, configs[scope], { filename: file })
    .filter((m) => !NODE_CORE_DIRECTIVE.test(m.message))
    .map((m) => ({ rule: m.ruleId ?? 'parse', line: m.line, message: m.message }));
}
