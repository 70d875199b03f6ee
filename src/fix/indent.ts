import type { TSESLint } from '@typescript-eslint/utils';

/** The leading whitespace of a 1-based source line. */
export function lineIndent(sourceCode: Readonly<TSESLint.SourceCode>, line: number): string {
  return /^\s*/.exec(sourceCode.lines[line - 1] ?? '')?.[0] ?? '';
}
