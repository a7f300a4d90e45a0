// Rules of Node's root ESLint config (eslint.config.mjs) that hold for every
// JS file, lib code and tests alike, re-implemented on the TypeScript AST
// (tools/overlay/lint.ts says why). The base's lib passes Node's lint, so it
// must pass these too: `make lint` lints it, which keeps them calibrated.
//   formatting                  no trailing spaces or tabs, one newline at EOF, at most 2 blank lines,
//                               lines ≤ 120 (but `// Flags:` and URLs), single quotes
//   capitalized-comments        a `//` comment starts with a capital letter, as Node configures it: not
//                               one that follows another comment, is at most 20 characters, or starts
//                               like code (`foo.bar`, `x = …`, `std`, `http`…)
//   eqeqeq                      === and !==, but == null and between literals or typeof ('smart')
//   no-var
//   arrow-parens                (x) => …, never x => …
//   semi                        every statement that ends with a semicolon has one
//   object-curly-spacing        { a }, never {a}, in literals, patterns and imports on one line
//   space-before-function-paren function(, function name(, async (x) =>
//   padding-line-between-statements  a blank line between two function declarations
//   dot-notation                x.y, not x['y']
//   no-throw-literal            throw an Error, not a literal
//   no-lonely-if                else if, not else { if }
//   one-var                     one initialized variable per declaration (for-loop heads aside)
//   func-style                  function declarations, not `const f = function() {}` (arrows allowed)
//   quote-props                 an object's keys all quoted or none ('consistent')
//   spaced-comment              `// text`, not `//text` (a run of dashes aside)
//   keyword-spacing             if (, for (, while (, switch (, catch (, } else {, try {, } finally {
//   brace-style                 1tbs: else, catch and finally on the closing brace's line, { on the head's
//   comma-spacing, key-spacing, arrow-spacing  `a, b`, `{ k: v }`, `(x) => y`
//   space-infix-ops, operator-linebreak ('after'), func-call-spacing, space-in-parens, new-parens,
//   computed-property-spacing, no-whitespace-before-property, dot-location ('property'),
//   template-curly-spacing, rest-spread-spacing, block-spacing, space-before-blocks
import { lineOf, ts } from './ts.ts';

export interface StyleFinding {
  rule: string;
  line: number;
  message: string;
}

// Node's ignorePattern for capitalized-comments' line comments, as ESLint anchors it.
const COMMENT_IGNORED = /^\s*(?:.{0,20}$|[a-z]+ ?[0-9A-Z_.(/=:[#-]|std|http|ssh|ftp)/;
const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;
// Tool directives ESLint's capitalized-comments leaves as they are.
const DIRECTIVE = /^\s*(?:eslint|jshint|jslint|istanbul|globals?|exported|jscs)\b/;

function isLiteralOrTypeof(node: ts.Expression): boolean {
  return ts.isLiteralExpression(node) || ts.isTypeOfExpression(node) || node.kind === ts.SyntaxKind.NullKeyword ||
    node.kind === ts.SyntaxKind.TrueKeyword || node.kind === ts.SyntaxKind.FalseKeyword;
}

/** Statements ESLint's `semi` checks: those the grammar ends with a semicolon. */
function needsSemicolon(node: ts.Node): boolean {
  return ts.isExpressionStatement(node) || ts.isVariableStatement(node) || ts.isReturnStatement(node) ||
    ts.isThrowStatement(node) || ts.isBreakStatement(node) || ts.isContinueStatement(node) ||
    ts.isDoStatement(node) || ts.isImportDeclaration(node) || ts.isExportAssignment(node) || ts.isDebuggerStatement(node);
}

/** Every comment of the file, in order, from the comment ranges around the nodes (a scanner alone misreads regular expressions and templates). */
export function commentRanges(sf: ts.SourceFile): ts.CommentRange[] {
  const text = sf.text;
  const ranges = new Map<number, ts.CommentRange>();
  const add = (list: ts.CommentRange[] | undefined) => { for (const r of list ?? []) ranges.set(r.pos, r); };
  const visit = (node: ts.Node): void => {
    add(ts.getLeadingCommentRanges(text, node.pos));
    add(ts.getTrailingCommentRanges(text, node.end));
    // The comments after a block's last statement, which no node leads.
    add(ts.getLeadingCommentRanges(text, node.end));
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return [...ranges.values()].sort((a, b) => a.pos - b.pos);
}

/** Every `//` comment with whether a comment comes right before it (only whitespace between). */
function lineComments(sf: ts.SourceFile): { pos: number; end: number; afterComment: boolean }[] {
  const sorted = commentRanges(sf);
  return sorted.flatMap((r, i) => {
    if (r.kind !== ts.SyntaxKind.SingleLineCommentTrivia) return [];
    const prev = sorted[i - 1];
    const afterComment = prev !== undefined && sf.text.slice(prev.end, r.pos).trim() === '';
    return [{ pos: r.pos, end: r.end, afterComment }];
  });
}

export function styleFindings(sf: ts.SourceFile, text: string): StyleFinding[] {
  const findings: StyleFinding[] = [];
  const report = (rule: string, pos: number, message: string) => findings.push({ rule, line: lineOf(sf, pos), message });

  const lines = text.split('\n');
  let blank = 0;
  lines.forEach((line, i) => {
    const n = i + 1;
    if (/[ \t]+$/.test(line)) findings.push({ rule: 'formatting', line: n, message: 'trailing whitespace' });
    if (line.includes('\t')) findings.push({ rule: 'formatting', line: n, message: 'tab character' });
    if (line.length > 120 && !/https?:\/\/|^\s*\/\/ Flags:/.test(line)) {
      findings.push({ rule: 'formatting', line: n, message: `line is ${line.length} characters (max 120)` });
    }
    blank = line.trim() === '' ? blank + 1 : 0;
    if (blank === 3 && i < lines.length - 1) findings.push({ rule: 'formatting', line: n, message: 'more than 2 blank lines' });
  });
  if (!text.endsWith('\n') || text.endsWith('\n\n')) findings.push({ rule: 'formatting', line: lines.length, message: 'the file must end with exactly one newline' });

  for (const c of lineComments(sf)) {
    const body = text.slice(c.pos + 2, c.end);
    const first = /\S/.exec(body)?.[0];
    if (c.afterComment || first === undefined || COMMENT_IGNORED.test(body) || DIRECTIVE.test(body)) continue;
    if (first !== first.toUpperCase() && first === first.toLowerCase() && first.toUpperCase() !== first.toLowerCase()) {
      report('capitalized-comments', c.pos, `start the comment with a capital letter: ${body.trim().slice(0, 40)}`);
    }
  }

  const visit = (node: ts.Node): void => {
    if (ts.isStringLiteral(node) && node.getText(sf).startsWith('"') && !node.text.includes("'") &&
        !ts.isImportDeclaration(node.parent)) {
      report('formatting', node.getStart(sf), `use single quotes: ${node.getText(sf)}`);
    }
    if (ts.isBinaryExpression(node)) {
      const op = node.operatorToken.kind;
      if (op === ts.SyntaxKind.EqualsEqualsToken || op === ts.SyntaxKind.ExclamationEqualsToken) {
        const smart = node.left.kind === ts.SyntaxKind.NullKeyword || node.right.kind === ts.SyntaxKind.NullKeyword ||
          (isLiteralOrTypeof(node.left) && isLiteralOrTypeof(node.right)) || ts.isTypeOfExpression(node.left) || ts.isTypeOfExpression(node.right);
        if (!smart) report('eqeqeq', node.operatorToken.getStart(sf), `use ${node.operatorToken.getText(sf)}=`);
      }
    }
    if (ts.isVariableDeclarationList(node) && !(node.flags & (ts.NodeFlags.Let | ts.NodeFlags.Const | ts.NodeFlags.Using))) {
      report('no-var', node.getStart(sf), 'use let or const');
    }
    if (ts.isArrowFunction(node)) {
      const head = text.slice(node.getStart(sf), node.equalsGreaterThanToken.getStart(sf));
      const params = head.replace(/^async\b\s*/, '');
      if (!params.startsWith('(')) report('arrow-parens', node.getStart(sf), 'put the arrow function\'s parameter in parentheses');
      if (/^async\(/.test(head)) report('space-before-function-paren', node.getStart(sf), 'async (…) =>, with a space');
    }
    if (ts.isFunctionExpression(node) || ts.isFunctionDeclaration(node)) {
      const open = text.indexOf('(', node.name ? node.name.getEnd() : node.getStart(sf));
      if (/\s$/.test(text.slice(node.name ? node.name.getEnd() : node.getStart(sf), open))) {
        report('space-before-function-paren', open, 'no space before the parameters\' parenthesis');
      }
    }
    if (ts.isObjectLiteralExpression(node) || ts.isObjectBindingPattern(node) || ts.isNamedImports(node)) {
      const t = node.getText(sf);
      if (!t.includes('\n') && t.length > 2 && (/^\{\S/.test(t) || /\S\}$/.test(t))) {
        report('object-curly-spacing', node.getStart(sf), `spaces inside the braces: ${t.slice(0, 40)}`);
      }
    }
    if (needsSemicolon(node) && !node.getText(sf).endsWith(';')) {
      report('semi', node.getEnd(), 'missing semicolon');
    }
    if (ts.isElementAccessExpression(node) && ts.isStringLiteral(node.argumentExpression) &&
        IDENTIFIER.test(node.argumentExpression.text)) {
      report('dot-notation', node.argumentExpression.getStart(sf), `use .${node.argumentExpression.text}`);
    }
    if (ts.isThrowStatement(node) && (ts.isLiteralExpression(node.expression) || ts.isTemplateExpression(node.expression) ||
        node.expression.kind === ts.SyntaxKind.NullKeyword || (ts.isIdentifier(node.expression) && node.expression.text === 'undefined'))) {
      report('no-throw-literal', node.getStart(sf), 'throw an Error');
    }
    if (ts.isBlock(node) || ts.isSourceFile(node) || ts.isModuleBlock(node) || ts.isCaseClause(node) || ts.isDefaultClause(node)) {
      node.statements.forEach((s, i) => {
        const prev = node.statements[i - 1];
        if (prev && ts.isFunctionDeclaration(prev) && ts.isFunctionDeclaration(s) && prev.body && s.body &&
            !/\n[ \t]*\n/.test(text.slice(prev.getEnd(), s.getStart(sf)))) {
          report('padding-line-between-statements', s.getStart(sf), 'a blank line between two function declarations');
        }
      });
    }
    layoutRules(sf, node, report);
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return findings;
}

type Report = (rule: string, pos: number, message: string) => void;

/** Text between two positions holds a comment: the spacing rules leave such gaps alone. */
function hasComment(gap: string): boolean {
  return gap.includes('//') || gap.includes('/*');
}

/** Comma, key and arrow spacing, keyword spacing and brace style, and the rules on how a statement is put. */
function layoutRules(sf: ts.SourceFile, node: ts.Node, report: Report): void {
  const text = sf.text;
  const start = node.getStart(sf);
  const head = text.slice(start, start + 16);

  const lists: ts.NodeArray<ts.Node>[] = [];
  if (ts.isCallExpression(node) || ts.isNewExpression(node)) lists.push(node.arguments ?? ts.factory.createNodeArray());
  if (ts.isArrayLiteralExpression(node) || ts.isArrayBindingPattern(node) || ts.isObjectBindingPattern(node)) lists.push(node.elements);
  if (ts.isObjectLiteralExpression(node)) lists.push(node.properties);
  if (ts.isFunctionLike(node)) lists.push(node.parameters);
  if (ts.isVariableDeclarationList(node)) lists.push(node.declarations);
  for (const list of lists) {
    if (list.some((el) => ts.isOmittedExpression(el))) continue;
    for (let i = 1; i < list.length; i++) {
      const gap = text.slice(list[i - 1].getEnd(), list[i].getStart(sf));
      if (!hasComment(gap) && !/^,\s/.test(gap)) report('comma-spacing', list[i - 1].getEnd(), 'no space before a comma, one after it');
    }
  }
  if (ts.isPropertyAssignment(node) && !ts.isComputedPropertyName(node.name)) {
    const gap = text.slice(node.name.getEnd(), node.initializer.getStart(sf));
    if (!hasComment(gap) && !gap.includes('\n') && gap !== ': ') report('key-spacing', node.name.getEnd(), 'one space after a key\'s colon, none before');
  }
  if (ts.isArrowFunction(node)) {
    const arrow = node.equalsGreaterThanToken;
    const before = text[arrow.getStart(sf) - 1];
    const after = text[arrow.getEnd()];
    if (!/\s/.test(before) || !/\s/.test(after)) report('arrow-spacing', arrow.getStart(sf), 'a space before and after =>');
  }
  if (ts.isVariableDeclarationList(node) && !ts.isForStatement(node.parent) && !ts.isForInStatement(node.parent) &&
      !ts.isForOfStatement(node.parent) && node.declarations.filter((d) => d.initializer).length > 1) {
    report('one-var', start, 'one declaration per initialized variable');
  }
  if (ts.isVariableDeclaration(node) && node.initializer && ts.isFunctionExpression(node.initializer)) {
    report('func-style', start, 'use a function declaration (or an arrow function)');
  }
  if (ts.isObjectLiteralExpression(node)) {
    const names = node.properties.flatMap((p) => (ts.isPropertyAssignment(p) && !ts.isComputedPropertyName(p.name) ? [p.name] : []));
    const quoted = names.filter((n) => ts.isStringLiteral(n)).length;
    if (quoted > 0 && quoted < names.length) report('quote-props', start, 'quote all of an object\'s keys or none');
  }

  // Keyword spacing and brace style, at the statement's keywords.
  const keyword = /^(if|for|for await|while|switch)\(/.exec(head);
  if (keyword && (ts.isIfStatement(node) || ts.isIterationStatement(node, false) || ts.isSwitchStatement(node))) {
    report('keyword-spacing', start, `${keyword[1]} (, with a space`);
  }
  if ((ts.isTryStatement(node) && /^try\{/.test(head)) || (ts.isDoStatement(node) && /^do\{/.test(head))) {
    report('keyword-spacing', start, `a space before the block`);
  }
  if (ts.isCatchClause(node) && /^catch[({]/.test(head)) report('keyword-spacing', start, 'catch (, with a space');
  const joins: [ts.Node, ts.Node, string][] = [];
  if (ts.isIfStatement(node) && node.elseStatement) joins.push([node.thenStatement, node.elseStatement, 'else']);
  if (ts.isTryStatement(node)) {
    if (node.catchClause) joins.push([node.tryBlock, node.catchClause, 'catch']);
    if (node.finallyBlock) joins.push([node.catchClause ?? node.tryBlock, node.finallyBlock, 'finally']);
  }
  for (const [before, after, word] of joins) {
    // The gap holds `else` and `finally`; a catch clause starts at its keyword.
    const gap = text.slice(before.getEnd(), after.getStart(sf));
    if (hasComment(gap) || (!ts.isBlock(before) && !ts.isCatchClause(before))) continue;
    if (gap.includes('\n')) {
      report('brace-style', before.getEnd(), `${word} on the closing brace's line`);
    } else if (!/^\s/.test(gap)) {
      report('keyword-spacing', before.getEnd(), `} ${word}, with a space`);
    } else if (word !== 'catch' && ts.isBlock(after) && !/\s$/.test(gap)) {
      report('keyword-spacing', after.getStart(sf), `${word} {, with a space`);
    }
  }
  // `) {`: the block's brace on the line of the parenthesis that closes the head.
  const braceAfterParen = (from: number, block: ts.Node, what: string) => {
    const gap = text.slice(from, block.getStart(sf));
    const afterParen = gap.slice(gap.lastIndexOf(')') + 1);
    if (!hasComment(gap) && afterParen.includes('\n')) report('brace-style', block.getStart(sf), `{ on the line of the ${what}'s )`);
  };
  if (ts.isIfStatement(node) && ts.isBlock(node.thenStatement)) braceAfterParen(node.expression.getEnd(), node.thenStatement, 'if');
  if ((ts.isFunctionDeclaration(node) || ts.isFunctionExpression(node) || ts.isMethodDeclaration(node)) && node.body) {
    braceAfterParen(node.parameters.end, node.body, 'function');
  }
  if (ts.isIfStatement(node) && node.elseStatement && ts.isBlock(node.elseStatement) &&
      node.elseStatement.statements.length === 1 && ts.isIfStatement(node.elseStatement.statements[0]) &&
      !hasComment(text.slice(node.elseStatement.getStart(sf), node.elseStatement.getEnd()).replace(/^\{/, ''))) {
    report('no-lonely-if', node.elseStatement.getStart(sf), 'else if, not else { if }');
  }
  if (ts.isSourceFile(node)) spacedComments(sf, report);
  tokenSpacing(sf, node, report);
}

const NON_INFIX = new Set([ts.SyntaxKind.CommaToken]);

/** Spacing around operators, parentheses, brackets and member access, token by token. */
function tokenSpacing(sf: ts.SourceFile, node: ts.Node, report: Report): void {
  const text = sf.text;
  const ws = (i: number) => /\s/.test(text[i] ?? ' ');
  if (ts.isBinaryExpression(node) && !NON_INFIX.has(node.operatorToken.kind)) {
    const op = node.operatorToken;
    const start = op.getStart(sf);
    if (!ws(start - 1) || !ws(op.getEnd())) report('space-infix-ops', start, `spaces around ${op.getText(sf)}`);
    // operator-linebreak 'after': a line may end with an operator, not start with one.
    const lineStart = text.lastIndexOf('\n', start - 1) + 1;
    if (text.slice(lineStart, start).trim() === '' && !hasComment(text.slice(node.left.getEnd(), start))) {
      report('operator-linebreak', start, `${op.getText(sf)} at the end of the line before, not at the start of this one`);
    }
  }
  if ((ts.isVariableDeclaration(node) || ts.isPropertyDeclaration(node) || ts.isParameter(node) || ts.isBindingElement(node)) &&
      node.initializer && !ts.isBindingElement(node.parent as ts.Node)) {
    const eq = text.lastIndexOf('=', node.initializer.getStart(sf));
    if (eq > 0 && (!ws(eq - 1) || !ws(eq + 1))) report('space-infix-ops', eq, 'spaces around =');
  }
  if (ts.isConditionalExpression(node)) {
    for (const t of [node.questionToken, node.colonToken]) {
      if (!ws(t.getStart(sf) - 1) || !ws(t.getEnd())) report('space-infix-ops', t.getStart(sf), `spaces around ${t.getText(sf)}`);
    }
  }
  if ((ts.isCallExpression(node) || ts.isNewExpression(node)) && node.arguments !== undefined) {
    const open = text.indexOf('(', (node.typeArguments?.end ?? node.expression.getEnd()));
    if (!ts.isNewExpression(node) && open > node.expression.getEnd() && !node.questionDotToken) {
      report('func-call-spacing', node.expression.getEnd(), 'no space before the call\'s (');
    }
    const close = node.getEnd() - 1;
    if (text[open + 1] === ' ' || (text[close - 1] === ' ' && !text.slice(open, close).includes('\n'))) {
      report('space-in-parens', open, 'no space inside the parentheses');
    }
  }
  if (ts.isNewExpression(node) && node.arguments === undefined) report('new-parens', node.getStart(sf), 'new X(), with parentheses');
  if (ts.isElementAccessExpression(node)) {
    const open = text.indexOf('[', node.expression.getEnd());
    const close = node.getEnd() - 1;
    if (text[open + 1] === ' ' || text[close - 1] === ' ') report('computed-property-spacing', open, 'no space inside the brackets');
  }
  if (ts.isPropertyAccessExpression(node)) {
    const dot = text.lastIndexOf('.', node.name.getStart(sf));
    const gapBefore = text.slice(node.expression.getEnd(), dot);
    if (/^[ \t]+$/.test(gapBefore)) report('no-whitespace-before-property', dot, 'no space before the .');
    if (text.slice(dot + 1, node.name.getStart(sf)).includes('\n')) report('dot-location', dot, 'the . on the property\'s line');
  }
  if (ts.isTemplateSpan(node)) {
    const open = text.lastIndexOf('${', node.expression.getStart(sf));
    if (text[open + 2] === ' ' || text[node.expression.getEnd()] === ' ') report('template-curly-spacing', open, 'no space inside ${}');
  }
  if ((ts.isSpreadElement(node) || ts.isSpreadAssignment(node)) && ws(node.getStart(sf) + 3)) {
    report('rest-spread-spacing', node.getStart(sf), 'no space after ...');
  }
  if (ts.isBlock(node) && node.statements.length > 0) {
    const t = node.getText(sf);
    if (!t.includes('\n') && (!/^\{\s/.test(t) || !/\s\}$/.test(t))) report('block-spacing', node.getStart(sf), '{ statements }, with spaces');
  }
  if (ts.isBlock(node) && !ts.isSourceFile(node.parent) && !ws(node.getStart(sf) - 1) && text[node.getStart(sf) - 1] !== '(') {
    report('space-before-blocks', node.getStart(sf), 'a space before {');
  }
}

/** `// text`: a line comment starts with a space (or is a run of dashes, or empty). */
function spacedComments(sf: ts.SourceFile, report: Report): void {
  for (const c of lineComments(sf)) {
    const body = sf.text.slice(c.pos + 2, c.end);
    if (body !== '' && !/^\s/.test(body) && !/^-+/.test(body)) report('spaced-comment', c.pos, '// and a space');
  }
}

/**
 * Drops the findings an ESLint directive turns off where it stands, as Node's
 * code uses them: `// eslint-disable-next-line rule, …` on the line above,
 * `// eslint-disable-line rule, …` on the line itself (no rules: every rule).
 * A rule is named as ESLint names it, with or without its plugin's prefix.
 */
export function withoutDisabled<F extends StyleFinding>(findings: F[], text: string): F[] {
  const lines = text.split('\n');
  const disables = (line: string | undefined, kind: string, rule: string): boolean => {
    const m = new RegExp(`//\\s*eslint-disable-${kind}\\b([^\\n]*)$`).exec(line ?? '');
    if (!m) return false;
    const rules = m[1].split('--')[0].split(',').map((r) => r.trim()).filter(Boolean);
    return rules.length === 0 || rules.some((r) => r === rule || r.endsWith(`/${rule}`));
  };
  return findings.filter((f) => !disables(lines[f.line - 2], 'next-line', f.rule) && !disables(lines[f.line - 1], 'line', f.rule));
}
