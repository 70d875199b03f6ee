import { type TSESTree } from '@typescript-eslint/utils';

import { type AnyRuleContext } from './context.js';
import { isFunction } from './function.js';
import { type TraversalStep, childNodes } from './nodes.js';

/** What a visit answers: nothing (go on), `'skip'` (not this node's children) or `'stop'` (nothing more). */
export type WalkAnswer = undefined | 'skip' | 'stop';

export interface WalkOptions {
  /** Enter functions nested under the root (default true). A function root is always entered. */
  enterFunctions?: boolean;
}

/**
 * The one subtree walk: visits `root` and every node under it in source order, each before its
 * children. Returns true when a visit answered `'stop'`.
 */
export function walk(
  root: TSESTree.Node,
  context: AnyRuleContext,
  visit: (node: TSESTree.Node) => WalkAnswer,
  options: WalkOptions = {},
): boolean {
  const keys = context.sourceCode.visitorKeys;
  const enterFunctions = options.enterFunctions !== false;
  const enter = (node: TSESTree.Node): boolean => {
    if (!enterFunctions && node !== root && isFunction(node)) return false;
    const answer = visit(node);
    if (answer === 'stop') return true;
    if (answer === 'skip') return false;
    for (const child of childNodes(node, keys)) if (enter(child)) return true;
    return false;
  };
  return enter(root);
}

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
  walk(root, context, (node) => {
    visit(node);
  });
}
