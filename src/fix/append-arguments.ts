import type { TSESLint, TSESTree } from '@typescript-eslint/utils';

/**
 * Appends `texts` as new arguments after the call's last one (after its trailing comma, when it
 * has one: `f(a,)` becomes `f(a, b)`). Undefined for a call without arguments (there is no token to anchor on that a
 * reviewer would expect).
 */
export function appendArguments(
  call: TSESTree.CallExpression | TSESTree.NewExpression,
  texts: readonly string[],
  sourceCode: Readonly<TSESLint.SourceCode>,
): TSESLint.ReportFixFunction | undefined {
  const last = call.arguments.at(-1);
  if (!last || texts.length === 0) return undefined;
  const added = texts.join(', ');
  const after = sourceCode.getTokenAfter(last);
  if (after?.value === ',') return (fixer) => fixer.insertTextAfter(after, ` ${added}`);
  return (fixer) => fixer.insertTextAfter(last, `, ${added}`);
}
