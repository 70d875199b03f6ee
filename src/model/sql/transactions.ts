import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';
import { enclosingFunction, unwrap } from '../ast/nodes.js';
import { type AnyRuleContext } from '../ast/context.js';
import { transactionStep, type TransactionStep } from './statements.js';
import { type PoolInfo, describePool, poolEvidence } from './pools.js';
import { walk } from '../ast/walk.js';
import { ormPoolStep } from '../orm/pooled.js';

// ---------------------------------------------------------------------------------------------
// Transactions on pools and clients

/** A transaction statement sent through a pool (`pool.query('BEGIN')`), with the pool's evidence. */
export interface PoolTransactionStep extends TransactionStep {
  pool: PoolInfo;
}

/**
 * The transaction statement `node` sends through a pool, or undefined: a driver's pool, or an
 * ORM's handle that holds one (`prisma.$executeRaw\`BEGIN\``, `knex.raw('BEGIN')`). Only
 * statements count: pools have no `beginTransaction()`.
 */
export function poolTransactionStep(
  node: TSESTree.CallExpression | TSESTree.TaggedTemplateExpression,
  context: AnyRuleContext,
): PoolTransactionStep | undefined {
  const step = transactionStep(node, context);
  const pool = step?.via === 'sql' ? describePool(step.receiver, context) : undefined;
  return step && pool ? { ...step, pool } : ormPoolStep(node, context);
}

/** The nodes under `root` in source order (not `root` itself), nested functions included. */
export function descendants(root: TSESTree.Node, context: AnyRuleContext): TSESTree.Node[] {
  const nodes: TSESTree.Node[] = [];
  walk(root, context, (node) => {
    if (node !== root) nodes.push(node);
  });
  return nodes;
}

/** Every transaction step under `root`, in source order. */
function stepsIn(root: TSESTree.Node, context: AnyRuleContext): TransactionStep[] {
  const steps: TransactionStep[] = [];
  for (const node of descendants(root, context)) {
    if (node.type === AST_NODE_TYPES.CallExpression || node.type === AST_NODE_TYPES.TaggedTemplateExpression) {
      const step = transactionStep(node, context);
      if (step) steps.push(step);
    }
  }
  return steps;
}

/** The function (or the whole program) a transaction step belongs to. */
export function transactionScope(node: TSESTree.Node): TSESTree.FunctionLike | TSESTree.Program {
  const fn = enclosingFunction(node);
  if (fn) return fn;
  let current: TSESTree.Node = node;
  while (current.parent) current = current.parent;
  return current;
}

export function sameReceiver(a: TSESTree.Node, b: TSESTree.Node, context: AnyRuleContext): boolean {
  return context.sourceCode.getText(unwrap(a)) === context.sourceCode.getText(unwrap(b));
}

/**
 * For a BEGIN on a client (not a pool), the rest of the transaction in the same function:
 * its first COMMIT after the BEGIN (or, without one, its first ROLLBACK), looked for in the
 * whole function, callbacks included, for callback-style drivers.
 */
export function transactionEnd(
  begin: TransactionStep,
  context: AnyRuleContext,
): { end: TransactionStep | undefined; steps: TransactionStep[] } {
  const steps = stepsIn(transactionScope(begin.node), context).filter((step) =>
    sameReceiver(step.receiver, begin.receiver, context),
  );
  const after = steps.filter((step) => step.node.range[0] > begin.node.range[1]);
  const end = after.find((step) => step.kind === 'commit') ?? after.find((step) => step.kind === 'rollback');
  return { end, steps };
}

/** True when `step` opens a transaction on a connection rather than on a pool. */
export function isClientBegin(step: TransactionStep, context: AnyRuleContext): boolean {
  return step.kind === 'begin' && poolEvidence(step.receiver, context) === undefined;
}
