import { type TSESTree } from '@typescript-eslint/utils';
import { type AnyRuleContext } from './context.js';
import { type TraversalStep, childNodes } from './nodes.js';

/**
 * Visits every node of `root` in source order (entering each before its children). For the whole
 * file it reads ESLint's own traversal, which ESLint records once before any rule runs and keeps
 * (`SourceCode#traverse()`), so a model that needs the whole file does not walk it a second time.
 */
export function forEachNode(root: TSESTree.Node, context: AnyRuleContext, visit: (node: TSESTree.Node) => void): void {
  const sourceCode = context.sourceCode as unknown as { ast: unknown; traverse?: () => Iterable<TraversalStep> };
  if (root === sourceCode.ast && typeof sourceCode.traverse === 'function') {
    for (const step of sourceCode.traverse()) {
      if (step.kind === 1 && step.phase === 1) visit(step.target as TSESTree.Node);
    }
    return;
  }
  const keys = context.sourceCode.visitorKeys;
  const enter = (node: TSESTree.Node): void => {
    visit(node);
    for (const child of childNodes(node, keys)) enter(child);
  };
  enter(root);
}
