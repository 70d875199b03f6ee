import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import * as parser from '@typescript-eslint/parser';
import { Linter } from 'eslint';
import { describe, expect, it } from 'vitest';

import { addProperty } from '../../src/fix/add-property.js';
import { appendArguments } from '../../src/fix/append-arguments.js';
import { fixOrSuggest } from '../../src/fix/fix-or-suggest.js';
import { lineIndent } from '../../src/fix/indent.js';

type MakeFix = (
  node: TSESTree.Node,
  sourceCode: Readonly<TSESLint.SourceCode>,
) => TSESLint.ReportFixFunction | undefined;

/** Applies `make`'s fix at the first node of `selector` in `code` through the real ESLint. */
function fixed(code: string, selector: string, make: MakeFix): string {
  let done = false;
  const rule: Omit<TSESLint.RuleModule<'x'>, 'defaultOptions'> = {
    meta: { type: 'problem', fixable: 'code', messages: { x: 'x' }, schema: [] },
    create(context) {
      return {
        [selector](node: TSESTree.Node) {
          if (done) return;
          done = true;
          const fix = make(node, context.sourceCode);
          if (fix) context.report({ node, messageId: 'x', fix });
        },
      };
    },
  };
  const linter = new Linter({ configType: 'flat' });
  const result = linter.verifyAndFix(
    code,
    [
      {
        files: ['**/*.ts'],
        languageOptions: { parser },
        plugins: { t: { rules: { r: rule as never } } },
        rules: { 't/r': 'error' },
      },
    ],
    'file.ts',
  );
  return result.output;
}

const property =
  (text: string, position?: 'first' | 'last'): MakeFix =>
  (node, sourceCode) =>
    addProperty(node as TSESTree.ObjectExpression, text, sourceCode, position);

describe('addProperty', () => {
  it.each([
    ['an empty object', 'f({});', 'f({ a: 1 });'],
    ['one line', 'f({ b: 2 });', 'f({ b: 2, a: 1 });'],
    ['one line with a trailing comma', 'f({ b: 2, });', 'f({ b: 2, a: 1, });'],
    ['several lines', 'f({\n    b: 2\n});', 'f({\n    b: 2,\n    a: 1\n});'],
    ['several lines with a trailing comma', 'f({\n  b: 2,\n});', 'f({\n  b: 2,\n  a: 1,\n});'],
  ])('adds a property to %s', (_name, code, output) => {
    expect(fixed(code, 'ObjectExpression', property('a: 1'))).toBe(output);
  });

  it('adds first when asked', () => {
    expect(fixed('f({ b: 2 });', 'ObjectExpression', property('a: 1', 'first'))).toBe('f({ a: 1, b: 2 });');
  });
});

describe('appendArguments', () => {
  const append =
    (texts: string[]): MakeFix =>
    (node, sourceCode) =>
      appendArguments(node as TSESTree.CallExpression, texts, sourceCode);

  it.each([
    ['after the last argument', 'f(a);', ['b'], 'f(a, b);'],
    ['several', 'f(a);', ['undefined', '{ t: 1 }'], 'f(a, undefined, { t: 1 });'],
    ['after a trailing comma, which it takes', 'f(\n  a,\n);', ['b'], 'f(\n  a, b\n);'],
    ['nothing to a call without arguments', 'f();', ['b'], 'f();'],
  ])('appends %s', (_name, code, texts, output) => {
    expect(fixed(code, 'CallExpression', append(texts))).toBe(output);
  });
});

describe('lineIndent and fixOrSuggest', () => {
  it('reads a line indentation', () => {
    let indent: string | undefined;
    fixed('if (a) {\n    b();\n}', 'ExpressionStatement', (_node, sourceCode) => {
      indent = lineIndent(sourceCode, 2);
      return undefined;
    });
    expect(indent).toBe('    ');
  });

  it('fixes or suggests, never both', () => {
    const suggestion = { messageId: 'm' as const, fix: () => null };
    expect(fixOrSuggest(true, suggestion)).toEqual({ fix: suggestion.fix });
    expect(fixOrSuggest(false, suggestion)).toEqual({ suggest: [suggestion] });
  });
});
