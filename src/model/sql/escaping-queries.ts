import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';
import { contains, unwrap } from '../ast/nodes.js';
import { findVariable } from '../ast/values.js';
import { type AnyRuleContext } from '../ast/context.js';
import {
  getQueryCall,
  getTaggedQuery,
  isWriteStatement,
  postgresTransactionHandle,
  transactionStatement,
  type TransactionStep,
} from './statements.js';
import { receiverName, poolEvidence } from './pools.js';
import { isClientBegin, transactionEnd, transactionScope, descendants, sameReceiver } from './transactions.js';
import { localFunction } from './rollback.js';
import { isFunction } from '../ast/function.js';

// -- no-pool-query-in-transaction ---------------------------------------------------------------

/** A query that leaves a client's transaction for the pool. */
export interface EscapingQuery {
  /** The pool query, or the call of a helper of this file that sends one. */
  node: TSESTree.CallExpression | TSESTree.TaggedTemplateExpression;
  /** The pool it goes through. */
  pool: TSESTree.Node;
  /** Set when `node` calls a helper: the helper's name. */
  helper: string | undefined;
}

/**
 * The queries sent through a pool while the transaction `begin` opened on a client is open:
 * between the BEGIN and the client's COMMIT (or ROLLBACK, or the end of the function). They
 * run on other connections, outside the transaction. Counted: writes and statements whose
 * text is not known, through the pool the client came from or any pool known by more than
 * its name; calls of helpers of this file that send such a query and are not handed the
 * client. Reads through the pool stay quiet: they change nothing.
 */
export function poolQueriesInTransaction(begin: TransactionStep, context: AnyRuleContext): EscapingQuery[] {
  if (!isClientBegin(begin, context)) return [];
  const { end, steps } = transactionEnd(begin, context);
  const scope = transactionScope(begin.node);
  const limit = end ? end.node.range[0] : scope.range[1];
  const source = clientSource(begin.receiver, context);
  // An early COMMIT / ROLLBACK (`if (dup) { ROLLBACK; log via pool; return }`) ends the transaction for what follows it in its block.
  const earlyEnds = steps.filter(
    (step) =>
      (step.kind === 'commit' || step.kind === 'rollback') &&
      step.node.range[0] > begin.node.range[1] &&
      step.node.range[0] < limit,
  );
  return escapingQueries(scope, begin.node.range[1], limit, begin.receiver, source, context).filter(
    (query) =>
      !earlyEnds.some(
        (step) => step.node.range[1] <= query.node.range[0] && contains(enclosingBlock(step.node), query.node),
      ),
  );
}

function enclosingBlock(node: TSESTree.Node): TSESTree.Node {
  for (let current = node.parent; current; current = current.parent) {
    if (
      current.type === AST_NODE_TYPES.BlockStatement ||
      current.type === AST_NODE_TYPES.SwitchCase ||
      current.type === AST_NODE_TYPES.Program
    )
      return current;
  }
  return node;
}

/**
 * postgres.js: the queries a `sql.begin((tx) => ...)` callback sends through `sql` itself
 * (or through helpers of this file that do) instead of `tx`.
 */
export function poolQueriesInPostgresTransaction(
  call: TSESTree.CallExpression,
  context: AnyRuleContext,
): EscapingQuery[] {
  const callback = call.arguments.find(isFunction) as
    TSESTree.ArrowFunctionExpression | TSESTree.FunctionExpression | undefined;
  const handle = callback?.params[0];
  if (
    !callback ||
    handle?.type !== AST_NODE_TYPES.Identifier ||
    postgresTransactionHandle(handle, context) === undefined
  )
    return [];
  const callee = unwrap(call.callee) as TSESTree.MemberExpression;
  return escapingQueries(callback.body, callback.body.range[0], callback.body.range[1], handle, callee.object, context);
}

function clientSource(client: TSESTree.Node, context: AnyRuleContext): TSESTree.Node | undefined {
  const target = unwrap(client);
  if (target.type !== AST_NODE_TYPES.Identifier) return undefined;
  const def = findVariable(context.sourceCode.getScope(target), target)?.defs[0];
  if (def?.node.type !== AST_NODE_TYPES.VariableDeclarator || !def.node.init) return undefined;
  const init = unwrap(def.node.init);
  if (init.type !== AST_NODE_TYPES.CallExpression) return undefined;
  const callee = unwrap(init.callee);
  return callee.type === AST_NODE_TYPES.MemberExpression ? callee.object : undefined;
}

function escapingQueries(
  root: TSESTree.Node,
  from: number,
  to: number,
  client: TSESTree.Node,
  source: TSESTree.Node | undefined,
  context: AnyRuleContext,
): EscapingQuery[] {
  const found: EscapingQuery[] = [];
  for (const node of descendants(root, context)) {
    if (node.range[0] < from || node.range[1] > to) continue;
    if (node.type !== AST_NODE_TYPES.CallExpression && node.type !== AST_NODE_TYPES.TaggedTemplateExpression) continue;
    const pool = escapingPool(node, source, context);
    if (pool) {
      found.push({ node, pool, helper: undefined });
      continue;
    }
    if (node.type !== AST_NODE_TYPES.CallExpression) continue;
    const helper = localFunction(unwrap(node.callee), context);
    if (!helper || node.arguments.some((argument) => mentions(argument, client, context))) continue;
    for (const child of descendants(helper.body, context)) {
      if (child.type !== AST_NODE_TYPES.CallExpression && child.type !== AST_NODE_TYPES.TaggedTemplateExpression)
        continue;
      const innerPool = escapingPool(child, source, context);
      if (innerPool) {
        found.push({ node, pool: innerPool, helper: receiverName(node.callee) });
        break;
      }
    }
  }
  return found;
}

/** The pool `node` sends a write (or unknown SQL) through, when it is one that counts. */
function escapingPool(
  node: TSESTree.CallExpression | TSESTree.TaggedTemplateExpression,
  source: TSESTree.Node | undefined,
  context: AnyRuleContext,
): TSESTree.Node | undefined {
  const sent =
    node.type === AST_NODE_TYPES.CallExpression ? getQueryCall(node, context) : getTaggedQuery(node, context);
  if (!sent) return undefined;
  if (sent.text !== undefined && (transactionStatement(sent.text) !== undefined || !isWriteStatement(sent.text)))
    return undefined;
  const evidence = poolEvidence(sent.receiver, context);
  if (evidence === undefined) return undefined;
  if (evidence === 'name' && !(source && sameReceiver(source, sent.receiver, context))) return undefined;
  return sent.receiver;
}

function mentions(node: TSESTree.Node, identifier: TSESTree.Node, context: AnyRuleContext): boolean {
  const name = context.sourceCode.getText(unwrap(identifier));
  return [node, ...descendants(node, context)].some(
    (child) => child.type === AST_NODE_TYPES.Identifier && child.name === name,
  );
}
