import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';

import { type AnyRuleContext } from '../ast/context.js';
import { leaves, unwrap } from '../ast/nodes.js';
import { walk } from '../ast/walk.js';

/**
 * A function that takes the handle to query with and falls back to one it holds itself only when
 * it is not handed one: `if (queryRunner) await queryRunner.manager.save(row); else await
 * this.repository.save(row);` (TypeORM services), `const manager = runner?.manager ??
 * this.dataSource.manager`, `if (!trx) return this.knex(t).insert(row)`. A caller that hands it
 * the transaction's handle never runs the fallback; a caller that leaves the handle out does.
 */

/** Names a project gives the handle it passes down: a task, a transaction, a client. */
export const HANDLE_NAME = /^(?:t|tx|trx|task|client|db|conn|connection|transaction|manager|em|entityManager|knex)$/;

/** A parameter annotation that names an ORM handle type (`trx?: Knex.Transaction`, `t: ITask<{}>`). */
export const HANDLE_ANNOTATION =
  /\b(?:Transaction|ITask|IDatabase|IBaseProtocol|EntityManager|QueryRunner|TransactionClient|ClientSession)\b/;

/** Besides those, the names of the handles a function tests for: a TypeORM query runner, a session. */
const TESTED_HANDLE_NAME = /^(?:queryRunner|runner|session)$/;

/** Each function's answer, read once: every call of its body asks. */
const fallbackParameters = new WeakMap<TSESTree.FunctionLike, number | undefined>();

/** The position of a handle parameter whose absence `fn` tests (`if (queryRunner)`, `trx ?? db`), or undefined. */
export function handleFallbackParameter(fn: TSESTree.FunctionLike, context: AnyRuleContext): number | undefined {
  if (fallbackParameters.has(fn)) return fallbackParameters.get(fn);
  const found = findFallbackParameter(fn, context);
  fallbackParameters.set(fn, found);
  return found;
}

function findFallbackParameter(fn: TSESTree.FunctionLike, context: AnyRuleContext): number | undefined {
  if (!fn.body) return undefined;
  const candidates = new Map<string, number>();
  for (const [index, param] of fn.params.entries()) {
    if (param.type !== AST_NODE_TYPES.Identifier) continue;
    const typed = param.typeAnnotation && HANDLE_ANNOTATION.test(context.sourceCode.getText(param.typeAnnotation));
    if (typed || HANDLE_NAME.test(param.name) || TESTED_HANDLE_NAME.test(param.name)) candidates.set(param.name, index);
  }
  if (candidates.size === 0) return undefined;
  let found: number | undefined;
  walk(fn.body, context, (node) => {
    const tested =
      node.type === AST_NODE_TYPES.IfStatement || node.type === AST_NODE_TYPES.ConditionalExpression
        ? testedParameter(node.test)
        : node.type === AST_NODE_TYPES.LogicalExpression && node.operator !== '&&'
          ? presentParameter(node.left)
          : undefined;
    found = tested === undefined ? undefined : candidates.get(tested);
    return found === undefined ? undefined : 'stop';
  });
  return found;
}

/**
 * True when `node`, inside `fn`, runs only when `fn` is not handed parameter `index`: in the
 * `else` of `if (p)`, the body of `if (!p)`, the alternate of `p ? … : …`, the right of `p ?? …`
 * or `p || …`, or after an `if (p) { …; return }`.
 */
export function runsWithoutHandle(node: TSESTree.Node, fn: TSESTree.FunctionLike, index: number): boolean {
  const param = fn.params[index];
  if (param?.type !== AST_NODE_TYPES.Identifier) return false;
  const name = param.name;
  for (let child: TSESTree.Node = node; child.parent && child !== fn; child = child.parent) {
    const parent = child.parent;
    if (parent.type === AST_NODE_TYPES.IfStatement || parent.type === AST_NODE_TYPES.ConditionalExpression) {
      const test = testOf(parent.test, name);
      if ((test === 'present' && child === parent.alternate) || (test === 'absent' && child === parent.consequent))
        return true;
    }
    if (
      parent.type === AST_NODE_TYPES.LogicalExpression &&
      parent.operator !== '&&' &&
      child === parent.right &&
      presentParameter(parent.left) === name
    )
      return true;
    if (parent.type === AST_NODE_TYPES.BlockStatement || parent.type === AST_NODE_TYPES.StaticBlock) {
      const at = parent.body.indexOf(child as TSESTree.Statement);
      const earlier = parent.body.slice(0, Math.max(0, at));
      if (
        earlier.some(
          (statement) =>
            statement.type === AST_NODE_TYPES.IfStatement &&
            statement.alternate === null &&
            testOf(statement.test, name) === 'present' &&
            leaves(statement.consequent),
        )
      )
        return true;
    }
  }
  return false;
}

/** The parameter a test checks, whichever way. */
function testedParameter(test: TSESTree.Node): string | undefined {
  const target = unwrap(test);
  if (target.type === AST_NODE_TYPES.UnaryExpression && target.operator === '!')
    return presentParameter(target.argument);
  if (target.type === AST_NODE_TYPES.BinaryExpression) return nullComparison(target)?.name;
  return presentParameter(target);
}

/** Whether `test` holds when parameter `name` is given (`p`, `p != null`) or when it is not (`!p`, `p === undefined`). */
function testOf(test: TSESTree.Node, name: string): 'present' | 'absent' | undefined {
  const target = unwrap(test);
  if (presentParameter(target) === name) return 'present';
  if (target.type === AST_NODE_TYPES.UnaryExpression && target.operator === '!')
    return presentParameter(target.argument) === name ? 'absent' : undefined;
  if (target.type !== AST_NODE_TYPES.BinaryExpression) return undefined;
  const comparison = nullComparison(target);
  if (comparison?.name !== name) return undefined;
  return comparison.equal ? 'absent' : 'present';
}

/** `p`, `p?.manager`, `p.manager`: the parameter whose presence the value stands for. */
function presentParameter(node: TSESTree.Node): string | undefined {
  let target = unwrap(node);
  while (target.type === AST_NODE_TYPES.MemberExpression) target = unwrap(target.object);
  return target.type === AST_NODE_TYPES.Identifier ? target.name : undefined;
}

/** `p === undefined`, `p == null`, `p !== null`: the parameter and whether the test is for its absence. */
function nullComparison(test: TSESTree.BinaryExpression): { name: string; equal: boolean } | undefined {
  const equal = test.operator === '===' || test.operator === '==';
  if (!equal && test.operator !== '!==' && test.operator !== '!=') return undefined;
  const isNull = (side: TSESTree.Node): boolean => {
    const value = unwrap(side);
    return (
      (value.type === AST_NODE_TYPES.Literal && value.value === null) ||
      (value.type === AST_NODE_TYPES.Identifier && value.name === 'undefined')
    );
  };
  const [left, right] = [unwrap(test.left), unwrap(test.right)];
  const other = isNull(right) ? left : isNull(left) ? right : undefined;
  return other?.type === AST_NODE_TYPES.Identifier ? { name: other.name, equal } : undefined;
}
