import { AST_NODE_TYPES, TSESLint, type TSESTree } from '@typescript-eslint/utils';

import { enclosingFunction, unwrap } from '../ast/nodes.js';
import { findVariable } from '../ast/values.js';
import { type AnyRuleContext } from '../ast/context.js';
import { findPerAttemptValue, MAX_DEPTH } from './per-attempt.js';
import { keyParts } from './imported.js';
import { insertedFieldValue } from './inserted-row.js';

const { DefinitionType } = TSESLint.Scope;

/**
 * The per-attempt values a key is made of (their minting expressions), through `const` bindings
 * of the function, the parts of a template or a `+`, and fields read back from a row the function
 * has just inserted (`` `tip-${row.receipt_id}` `` with `receipt_id: crypto.randomUUID()` in the
 * insert). Such a value in the request's body travels with its key: whenever it changes, so does
 * the key, and a given key always comes with the same value.
 */
export function perAttemptKeySources(key: TSESTree.Node, context: AnyRuleContext): Set<TSESTree.Node> {
  const found = new Set<TSESTree.Node>();
  collect(key, context, found, 0);
  return found;
}

function collect(node: TSESTree.Node, context: AnyRuleContext, found: Set<TSESTree.Node>, depth: number): void {
  if (depth > MAX_DEPTH) return;
  for (const part of keyParts(node)) {
    const direct = findPerAttemptValue(part, context);
    if (direct) found.add(direct.source);
    if (part.type === AST_NODE_TYPES.MemberExpression) {
      const written = insertedFieldValue(part, context);
      if (written) collect(written, context, found, depth + 1);
      continue;
    }
    if (part.type !== AST_NODE_TYPES.Identifier) continue;
    const variable = findVariable(context.sourceCode.getScope(part), part);
    const def = variable?.defs.length === 1 ? variable.defs[0] : undefined;
    if (
      def?.type === DefinitionType.Variable &&
      def.node.id.type === AST_NODE_TYPES.Identifier &&
      def.node.init &&
      enclosingFunction(def.node) &&
      variable?.references.filter((reference) => reference.isWrite()).length === 1
    )
      collect(unwrap(def.node.init), context, found, depth + 1);
  }
}
