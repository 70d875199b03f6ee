import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';

import { unwrap } from '../ast/nodes.js';
import { memberName } from '../ast/names.js';
import { importSource } from '../modules.js';
import { type AnyRuleContext } from '../ast/context.js';
import { calleeSummary, importedSummary, summaryAt, hasSummaryFact } from '../settings.js';

/**
 * A header name imported from another module that `settings.idempotency.keyHeaderNames` lists
 * (computed by `idempotency-check` from the exporting module: `export const HEADER = 'Idempotency-Key'`):
 * `[HEADER]: v`, `headers.set(HEADER, v)`, or `ns.HEADER` of a namespace import.
 */
export function isImportedKeyHeaderName(node: TSESTree.Node, context: AnyRuleContext): boolean {
  if (!hasSummaryFact(context, 'keyHeaderName')) return false;
  const target = unwrap(node);
  if (target.type === AST_NODE_TYPES.Identifier) return importedSummary(target, context)?.keyHeaderName === true;
  if (target.type !== AST_NODE_TYPES.MemberExpression || target.object.type !== AST_NODE_TYPES.Identifier) return false;
  const source = importSource(target.object, context.sourceCode.getScope(target.object));
  const name = memberName(target);
  return (
    source?.imported === '*' && name !== undefined && summaryAt(context, source.module, name)?.keyHeaderName === true
  );
}

/**
 * The parameters of an imported function that `settings.idempotency.keyParameters` lists as written
 * into a key when it sends (computed by `idempotency-check` from the defining module), for a call
 * of it here: `mutate(url, body, key)`, `api.mutate(...)` through a namespace import, or
 * `this.payments.mutate(...)` on a service injected by its class.
 */
export function listedKeyParameters(
  call: TSESTree.CallExpression,
  context: AnyRuleContext,
): { index: number; parameter: string; property?: string }[] {
  if (!hasSummaryFact(context, 'keyParameters')) return [];
  const callee = unwrap(call.callee);
  const head = callee.type === AST_NODE_TYPES.MemberExpression ? unwrap(callee.object) : callee;
  // `this.gateway.transfer(...)` on an injected service: the method of the class its type names.
  if (head.type !== AST_NODE_TYPES.Identifier) return calleeSummary(callee, context)?.keyParameters ?? [];
  const source = importSource(head, context.sourceCode.getScope(head));
  if (!source) return [];
  const method = callee.type === AST_NODE_TYPES.MemberExpression ? memberName(callee) : undefined;
  // `api.send(...)` of `import * as api`, or `queue.enqueue(...)` of an imported instance (`queue.enqueue`).
  const name =
    callee === head
      ? source.imported
      : method === undefined
        ? undefined
        : source.imported === '*'
          ? method
          : `${source.imported}.${method}`;
  return name === undefined ? [] : (summaryAt(context, source.module, name)?.keyParameters ?? []);
}
