import type { TSESLint, TSESTree } from '@typescript-eslint/utils';

import { lineIndent } from './indent.js';

/**
 * Adds `text` (`key: value`) to an object literal: as its only property when it is empty, first
 * (`position: 'first'`) or after its last property, on a line of its own with the last property's
 * indentation when the object spans lines, keeping the object's trailing-comma style.
 */
export function addProperty(
  object: TSESTree.ObjectExpression,
  text: string,
  sourceCode: Readonly<TSESLint.SourceCode>,
  position: 'first' | 'last' = 'last',
): TSESLint.ReportFixFunction {
  const first = object.properties[0];
  const lastProperty = object.properties.at(-1);
  if (!first || !lastProperty) return (fixer) => fixer.replaceText(object, `{ ${text} }`);
  if (position === 'first') return (fixer) => fixer.insertTextBefore(first, `${text}, `);
  const comma = sourceCode.getTokenAfter(lastProperty);
  const hasTrailingComma = comma?.value === ',';
  const closing = sourceCode.getLastToken(object);
  if (closing && closing.loc.start.line > lastProperty.loc.end.line) {
    const indent = lineIndent(sourceCode, lastProperty.loc.start.line);
    if (hasTrailingComma) return (fixer) => fixer.insertTextAfter(comma, `\n${indent}${text},`);
    return (fixer) => fixer.insertTextAfter(lastProperty, `,\n${indent}${text}`);
  }
  if (hasTrailingComma) return (fixer) => fixer.insertTextAfter(comma, ` ${text},`);
  return (fixer) => fixer.insertTextAfter(lastProperty, `, ${text}`);
}
