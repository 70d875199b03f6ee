import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';

import { memberName, memberPath } from '../ast/names.js';
import { enclosingFunction } from '../ast/nodes.js';
import { walk } from '../ast/walk.js';
import { isFunction } from '../ast/function.js';
import { type AnyRuleContext } from '../ast/context.js';
import { type KeySink } from './sinks.js';

/**
 * A key header written into a shared HTTP client's defaults: axios merges
 * `instance.defaults.headers.common` (and the top level of `defaults.headers`, and
 * `defaults.headers.get`) into every request the instance sends from then on, whatever module sends
 * it. A key put there rides on every read until something removes it, and when the write it was
 * meant for fails or is awaited first, reads sent meanwhile carry it too. Method-scoped defaults
 * (`defaults.headers.post`) reach only that method.
 */

/** Sections of axios' `defaults.headers` a GET request gets. */
const READ_SECTIONS = new Set(['common', 'get', 'head', 'options']);

/** What a method-scoped section is named: anything else directly under `headers` is a header. */
const METHOD_SECTIONS = new Set(['post', 'put', 'patch', 'delete', 'purge', 'link', 'unlink']);

/**
 * The client whose defaults `sink` writes the key into (`instance` for
 * `instance.defaults.headers.common['Idempotency-Key'] = key`), when reads the client sends carry
 * it; undefined when the section is method-scoped, or when the same function removes the header
 * again before anything else can run (no `await`, `yield`, `return` or `throw` in between).
 */
export function clientDefaultsHoldingKey(sink: KeySink, context: AnyRuleContext): TSESTree.Node | undefined {
  if (sink.kind !== 'header' || sink.node.type !== AST_NODE_TYPES.AssignmentExpression) return undefined;
  const target = sink.node.left;
  if (target.type !== AST_NODE_TYPES.MemberExpression || isNothing(sink.node.right)) return undefined;
  const scope = context.sourceCode.getScope(sink.node);
  const path = memberPath(target.object, scope);
  if (!path) return undefined;
  const at = path.lastIndexOf('defaults');
  if (at < 1 || path[at + 1] !== 'headers') return undefined;
  const section = path.slice(at + 2);
  if (section.length > 1) return undefined;
  if (section[0] !== undefined && (METHOD_SECTIONS.has(section[0]) || !READ_SECTIONS.has(section[0]))) return undefined;
  if (isRemovedAtOnce(sink.node, path, sink.name, context)) return undefined;
  let client: TSESTree.Node = target.object;
  for (let steps = section.length + 2; steps > 0 && client.type === AST_NODE_TYPES.MemberExpression; steps--)
    client = client.object;
  return client;
}

/**
 * The header is deleted (or set to `undefined`) again in the same function, on every path and
 * before control can leave it: in the same block (or an enclosing one) with nothing in between that
 * yields or leaves, or in a `finally` around or after the write whose `try` does not yield first.
 */
function isRemovedAtOnce(
  write: TSESTree.AssignmentExpression,
  path: string[],
  name: string,
  context: AnyRuleContext,
): boolean {
  const owner = enclosingFunction(write)?.body ?? context.sourceCode.ast;
  const lists = statementListsAround(write);
  let removed = false;
  walk(
    owner,
    context,
    (node) => {
      if (removed) return 'stop';
      if (node.range[0] < write.range[1] || !removes(node, path, name, context)) return undefined;
      const statement = node.parent;
      if (statement?.type !== AST_NODE_TYPES.ExpressionStatement) return undefined;
      const list = statement.parent;
      const inFinally =
        list.type === AST_NODE_TYPES.BlockStatement &&
        list.parent.type === AST_NODE_TYPES.TryStatement &&
        list.parent.finalizer === list &&
        lists.has(list.parent.parent);
      if (!inFinally && !lists.has(list)) return undefined;
      removed = !leavesOrYieldsBetween(write, node, owner, !inFinally, context);
      return removed ? 'stop' : undefined;
    },
    { enterFunctions: false },
  );
  return removed;
}

/** The blocks (and the program) whose statement lists hold the write or one of its ancestors. */
function statementListsAround(node: TSESTree.Node): Set<TSESTree.Node | undefined> {
  const lists = new Set<TSESTree.Node | undefined>();
  for (let current: TSESTree.Node | undefined = node.parent; current; current = current.parent) {
    if (
      current.type === AST_NODE_TYPES.BlockStatement ||
      current.type === AST_NODE_TYPES.Program ||
      current.type === AST_NODE_TYPES.TryStatement
    )
      lists.add(current);
    if (isFunction(current)) break;
  }
  return lists;
}

/** `delete <path>[name]` or `<path>[name] = undefined`. */
function removes(node: TSESTree.Node, path: string[], name: string, context: AnyRuleContext): boolean {
  const target =
    node.type === AST_NODE_TYPES.UnaryExpression && node.operator === 'delete'
      ? node.argument
      : node.type === AST_NODE_TYPES.AssignmentExpression && isNothing(node.right)
        ? node.left
        : undefined;
  if (target?.type !== AST_NODE_TYPES.MemberExpression) return false;
  const scope = context.sourceCode.getScope(node);
  return (
    memberName(target, scope)?.toLowerCase() === name.toLowerCase() &&
    memberPath(target.object, scope)?.join('.') === path.join('.')
  );
}

/** An `await` or `yield` (and, unless a `finally` runs anyway, a `return` or `throw`) between the two nodes. */
function leavesOrYieldsBetween(
  from: TSESTree.Node,
  to: TSESTree.Node,
  owner: TSESTree.Node,
  leavingCounts: boolean,
  context: AnyRuleContext,
): boolean {
  return walk(
    owner,
    context,
    (node) => {
      if (node.range[1] <= from.range[1] || node.range[0] >= to.range[0]) return 'skip';
      if (node.range[0] < from.range[1]) return undefined;
      if (node.type === AST_NODE_TYPES.AwaitExpression || node.type === AST_NODE_TYPES.YieldExpression) return 'stop';
      if (
        leavingCounts &&
        (node.type === AST_NODE_TYPES.ReturnStatement || node.type === AST_NODE_TYPES.ThrowStatement)
      )
        return 'stop';
      return undefined;
    },
    { enterFunctions: false },
  );
}

/** `undefined` or `null`: clearing the header, not writing a key. */
function isNothing(node: TSESTree.Node): boolean {
  return (
    (node.type === AST_NODE_TYPES.Identifier && node.name === 'undefined') ||
    (node.type === AST_NODE_TYPES.Literal && node.value === null)
  );
}
