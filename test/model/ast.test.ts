import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';
import { describe, expect, it } from 'vitest';

import { findVariable } from '../../src/model/ast/values.js';
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

describe('findVariable', () => {
  it("finds a function's own name outside its body, past a parameter or local of the same name", () => {
    const code = [
      'async function load() {',
      "  const { load } = await import('./impl');",
      '  return load();',
      '}',
      'const other = function run(run) { return run(); };',
      'load();',
      'other(() => 1);',
    ].join('\n');
    const found: Record<string, { line: number; calls: number[] }> = {};
    lintSnippet(code, (context) => ({
      'FunctionDeclaration, FunctionExpression'(fn: TSESTree.FunctionDeclaration | TSESTree.FunctionExpression) {
        if (!fn.id) return;
        const variable = findVariable(context.sourceCode.getScope(fn.id), fn.id);
        found[fn.id.name] = {
          line: variable?.defs[0]?.name.loc.start.line ?? 0,
          calls: (variable?.references ?? [])
            .filter((reference) => reference.identifier.parent.type === AST_NODE_TYPES.CallExpression)
            .map((reference) => reference.identifier.loc.start.line),
        };
      },
    }));
    // `load` is the declaration of line 1, called on line 6 only: line 3 calls the local import.
    expect(found.load).toEqual({ line: 1, calls: [6] });
    // A named function expression's name is its own (its parameter `run` shadows it inside).
    expect(found.run).toEqual({ line: 5, calls: [] });
  });
});
