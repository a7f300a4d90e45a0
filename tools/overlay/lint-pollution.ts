// Node's avoid-prototype-pollution for lib code (tools/eslint-rules, not in the fixtures), on the
// TypeScript AST: calls by primordial name that look up a property user code can change on a prototype.
//   PromisePrototypeCatch/Finally, Promise{All,AllSettled,Any,Race}  look up `then` (use Safe*)
//   RegExpPrototypeTest, RegExpPrototypeSymbol{Match,MatchAll,Search}  look up `exec`
//   StringPrototype{Match,MatchAll,Search}                             look up Symbol.match… on the argument
//   StringPrototype{Replace,ReplaceAll,Split} with a regular expression look up Symbol.replace/split on it
//   property descriptors (ObjectDefineProperty/ies, ReflectDefineProperty, ObjectCreate's second argument)
//   and Proxy handlers written as object literals without `__proto__: null`, or taken from
//   Object/ReflectGetOwnPropertyDescriptor(s)
import type { LintFinding } from './lint.ts';
import { calleeIdentifier, lineOf, skipParens, ts } from './ts.ts';

const THEN_LOOKUPS: Record<string, string> = {
  PromisePrototypeCatch: 'looks up `then` on the promise; use PromisePrototypeThen(p, undefined, fn)',
  PromisePrototypeFinally: 'looks up `then` on the promise; use SafePromisePrototypeFinally',
};
const COMBINATOR = /^Promise(All(Settled)?|Any|Race)/;
const EXEC_LOOKUP = /^RegExpPrototype(Test|Symbol(Match|MatchAll|Search))$/;
const STRING_LOOKUP = /^StringPrototype(Match|MatchAll|Search)$/;
const STRING_REGEX_LOOKUP = /^StringPrototype(Replace|ReplaceAll|Split)$/;
const DESCRIPTOR_GETTER = /^(Object|Reflect)GetOwnPropertyDescriptor$/;

/** Whether an object literal has `__proto__: null`. */
function nullPrototype(node: ts.ObjectLiteralExpression): boolean {
  return node.properties.some((p) => ts.isPropertyAssignment(p) && !ts.isComputedPropertyName(p.name) &&
    p.name.text === '__proto__' && skipParens(p.initializer).kind === ts.SyntaxKind.NullKeyword);
}

/** A regular expression as an argument: a literal, or `new RegExp(…)`. */
function isRegExp(node: ts.Expression | undefined): boolean {
  const e = node && skipParens(node);
  return e !== undefined && (ts.isRegularExpressionLiteral(e) || (ts.isNewExpression(e) && calleeIdentifier(e) === 'RegExp'));
}

export function pollutionFindings(sf: ts.SourceFile): LintFinding[] {
  const findings: LintFinding[] = [];
  const report = (node: ts.Node, message: string) =>
    findings.push({ rule: 'prototype-pollution', line: lineOf(sf, node.getStart(sf)), message });
  const descriptor = (arg: ts.Expression | undefined): void => {
    const e = arg && skipParens(arg);
    if (e && ts.isCallExpression(e) && DESCRIPTOR_GETTER.test(calleeIdentifier(e) ?? '')) {
      report(e, 'a property descriptor inherits from Object.prototype: wrap it in { __proto__: null, ... }');
    } else if (e && ts.isObjectLiteralExpression(e) && !nullPrototype(e)) {
      report(e, 'write a property descriptor with __proto__: null');
    }
  };
  const descriptors = (arg: ts.Expression | undefined): void => {
    const e = arg && skipParens(arg);
    if (e && ts.isCallExpression(e) && calleeIdentifier(e) === 'ObjectGetOwnPropertyDescriptors') {
      report(e, 'property descriptors inherit from Object.prototype');
    } else if (e && ts.isObjectLiteralExpression(e)) {
      for (const p of e.properties) {
        if (ts.isPropertyAssignment(p) && (ts.isComputedPropertyName(p.name) || p.name.text !== '__proto__')) descriptor(p.initializer);
      }
    }
  };
  const visit = (node: ts.Node): void => {
    if (ts.isCallExpression(node)) {
      const name = calleeIdentifier(node) ?? '';
      const args = node.arguments;
      if (THEN_LOOKUPS[name]) report(node, `${name} ${THEN_LOOKUPS[name]}`);
      else if (COMBINATOR.test(name)) report(node, `use Safe${name}`);
      else if (EXEC_LOOKUP.test(name)) report(node, `${name} looks up \`exec\` on the regular expression; use RegExpPrototypeExec`);
      else if (STRING_LOOKUP.test(name)) report(node, `${name} looks up a Symbol method on its argument`);
      else if (STRING_REGEX_LOOKUP.test(name) && isRegExp(args[1])) {
        report(node, `${name} looks up a Symbol method on the regular expression; call its RegExpPrototypeSymbol… directly`);
      } else if (name === 'ObjectDefineProperty' || name === 'ReflectDefineProperty') descriptor(args[2]);
      else if (name === 'ObjectDefineProperties' || (name === 'ObjectCreate' && args.length === 2)) descriptors(args[1]);
    }
    if (ts.isNewExpression(node) && calleeIdentifier(node) === 'Proxy') {
      const handler = node.arguments?.[1] && skipParens(node.arguments[1]);
      if (handler && ts.isObjectLiteralExpression(handler) && !nullPrototype(handler)) {
        report(node, 'give a Proxy handler __proto__: null');
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return findings;
}
