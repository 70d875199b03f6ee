import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';

import { type AnyRuleContext } from '../ast/context.js';
import { isFunction } from '../ast/function.js';
import { endName, memberName } from '../ast/names.js';
import { contains, unwrap } from '../ast/nodes.js';
import { walk } from '../ast/walk.js';
import { DURABLE_STEPS, type DurableStep } from '../libraries/durable-steps.js';

/**
 * Code a redelivery does not run again: the callback of a durable step (libraries/durable-steps.ts),
 * whose result the engine recorded the first time. The inverse of an attempt scope. A step is the
 * unit the engine retries: one that fails runs its whole callback again, so only its last
 * operation makes its effect once; in a step that deploys and then publishes, a failed publish
 * deploys again.
 */

/** The durable step whose last operation holds `node`, searched up to (not beyond) `within`. */
export function enclosingDurableStep(
  node: TSESTree.Node,
  within: TSESTree.FunctionLike,
  context: AnyRuleContext,
): DurableStep | undefined {
  for (let current = node.parent; current && current !== within; current = current.parent) {
    if (!isFunction(current)) continue;
    const step = durableStepOf(current, context);
    if (step) return contains(lastOperation(current, context), node) ? step : undefined;
  }
  return undefined;
}

/** The durable step `fn` is the callback of: `step.run('id', async () => …)`, `io.runTask(key, fn)`. */
function durableStepOf(fn: TSESTree.FunctionLike, context: AnyRuleContext): DurableStep | undefined {
  const call = fn.parent;
  if (call.type !== AST_NODE_TYPES.CallExpression) return undefined;
  const step = durableStepCall(call, context);
  return step && call.arguments[step.callback] === fn ? step : undefined;
}

/**
 * The durable step a call runs (`io.runTask(key, fn)`): the engine's own bookkeeping around the
 * callback (the record it finds or writes under the step's key) is how the step is made once,
 * not work of the program a redelivery repeats.
 */
export function durableStepCall(call: TSESTree.CallExpression, context: AnyRuleContext): DurableStep | undefined {
  const callee = unwrap(call.callee);
  if (callee.type !== AST_NODE_TYPES.MemberExpression) return undefined;
  const receiver = unwrap(callee.object);
  const name = endName(receiver);
  const method = memberName(callee);
  if (name === undefined || method === undefined) return undefined;
  return DURABLE_STEPS.find(
    (step) =>
      step.method === method &&
      step.receiver.test(name) &&
      call.arguments[step.callback] !== undefined &&
      (step.module === undefined || importsModule(step.module, context)),
  );
}

function importsModule(module: RegExp, context: AnyRuleContext): boolean {
  return context.sourceCode.ast.body.some(
    (statement) => statement.type === AST_NODE_TYPES.ImportDeclaration && module.test(statement.source.value),
  );
}

/**
 * The step's last operation: the expression body of `async () => send(x)`, or the last call the
 * callback waits for (`await send(x)`, `return send(x)`). Only what it does is made once: what
 * the callback did before it is made again when the last operation fails and the step is retried.
 */
function lastOperation(fn: TSESTree.FunctionLike, context: AnyRuleContext): TSESTree.Node {
  const known = lastOperations.get(fn);
  if (known) return known;
  const found = findLastOperation(fn, context);
  lastOperations.set(fn, found);
  return found;
}

/** Each step callback's last operation, once: every call inside the callback asks. */
const lastOperations = new WeakMap<TSESTree.FunctionLike, TSESTree.Node>();

function findLastOperation(fn: TSESTree.FunctionLike, context: AnyRuleContext): TSESTree.Node {
  if (fn.body?.type !== AST_NODE_TYPES.BlockStatement) return fn.body ?? fn;
  let last: TSESTree.Node | undefined;
  walk(
    fn.body,
    context,
    (node) => {
      // `await send(x)`, or `return send(x)` (a promise the step waits for).
      if (
        (node.type === AST_NODE_TYPES.AwaitExpression &&
          unwrap(node.argument).type === AST_NODE_TYPES.CallExpression) ||
        (node.type === AST_NODE_TYPES.ReturnStatement && node.argument?.type === AST_NODE_TYPES.CallExpression)
      ) {
        last = node;
        return 'skip';
      }
      return undefined;
    },
    { enterFunctions: false },
  );
  return last ?? fn.body;
}
