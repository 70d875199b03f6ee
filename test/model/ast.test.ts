import type { TSESTree } from '@typescript-eslint/utils';
import { describe, expect, it } from 'vitest';

import { forEachNode } from '../../src/model/ast/walk.js';
import { lintSnippet } from '../rule-tester.js';

describe('forEachNode', () => {
  it("visits the whole file from ESLint's recorded traversal in the same order as a walk of its parts", () => {
    const code = `
import { Worker } from 'bullmq';
export async function handle(job: { id: string }) {
  const res = await fetch(\`https://api.test/\${job.id}\`, { method: 'POST', signal: AbortSignal.timeout(1000) });
  return res.ok ? [1, 2].map((n) => n * 2) : undefined;
}
new Worker('q', handle);
`;
    const fromTraversal: string[] = [];
    let fromWalk: string[] = [];
    let usedTraversal = false;
    lintSnippet(code, (context) => ({
      Program(program: TSESTree.Program) {
        const label = (node: TSESTree.Node): string => `${node.type}@${node.range[0]}`;
        usedTraversal = typeof (context.sourceCode as unknown as { traverse?: unknown }).traverse === 'function';
        forEachNode(program, context, (node) => fromTraversal.push(label(node)));
        // The statements are not the file's root, so these walk the tree themselves.
        fromWalk = [label(program)];
        for (const statement of program.body) forEachNode(statement, context, (node) => fromWalk.push(label(node)));
      },
    }));
    expect(usedTraversal).toBe(true);
    expect(fromTraversal.length).toBeGreaterThan(50);
    expect(fromTraversal).toEqual(fromWalk);
  });
});
