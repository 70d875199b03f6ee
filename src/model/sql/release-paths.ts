import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';
import { contains } from '../ast/nodes.js';
import { isFunction } from '../ast/function.js';
import { walk } from '../ast/walk.js';
import { type AnyRuleContext } from '../ast/context.js';

// ---------------------------------------------------------------------------------------------
// Release on every path

export type ReleaseProblem =
  /** Nothing ever gives the client back, and it never leaves the code that took it. */
  | { kind: 'neverReleased' }
  /** `release()` exists, but a throw (`at` is the awaited work) or an early exit (`at` is the return) skips it. */
  | { kind: 'skipped'; at: TSESTree.Node }
  /**
   * Nothing releases it here; it is handed to a helper that does on some paths, and the path
   * through `at` (an exit, or the end of the function) neither releases nor hands it on.
   */
  | { kind: 'notHandedOn'; at: TSESTree.Node };

/** The statement list a statement sits in, with its index, when it sits in one. */
export function statementList(statement: TSESTree.Node): { list: TSESTree.Node[]; index: number } | undefined {
  const parent = statement.parent;
  if (!parent) return undefined;
  let list: TSESTree.Node[] | undefined;
  if (
    parent.type === AST_NODE_TYPES.BlockStatement ||
    parent.type === AST_NODE_TYPES.Program ||
    parent.type === AST_NODE_TYPES.StaticBlock
  )
    list = parent.body;
  if (parent.type === AST_NODE_TYPES.SwitchCase) list = parent.consequent;
  if (!list) return undefined;
  const index = list.indexOf(statement);
  return index === -1 ? undefined : { list, index };
}

/** True when `test` holds for `node` or a descendant, not entering nested functions. */
function someInside(node: TSESTree.Node, test: (node: TSESTree.Node) => boolean, flow: Flow): boolean {
  return walk(node, flow.context, (inner) => (test(inner) ? 'stop' : undefined), { enterFunctions: false });
}

/** The first awaited operation in `node` (not in nested functions): where a rejection throws. */
function firstAwait(node: TSESTree.Node, flow: Flow): TSESTree.Node | undefined {
  let found: TSESTree.Node | undefined;
  someInside(
    node,
    (inner) => {
      if (
        inner.type === AST_NODE_TYPES.AwaitExpression ||
        (inner.type === AST_NODE_TYPES.ForOfStatement && inner.await)
      ) {
        found = inner;
        return true;
      }
      return false;
    },
    flow,
  );
  return found;
}

export interface Flow {
  /** Every release call of the client (or, for a client only handed on, every call it is handed to). */
  releases: readonly TSESTree.CallExpression[];
  /** Every reference that hands the client on. */
  escapes: readonly TSESTree.Node[];
  leaks: TSESTree.Node[];
  context: AnyRuleContext;
}

interface Env {
  /** Inside a `try` whose `catch` receives a throw before it leaves the analysed code. */
  caught: boolean;
}

interface Outcome {
  released: boolean;
  /** The path ended (return / throw) instead of falling through. */
  terminated: boolean;
}

function holds(node: TSESTree.Node, nodes: readonly TSESTree.Node[]): boolean {
  return nodes.some((inner) => contains(node, inner));
}

/** Runs the statements of a list from `start`, following the client from "lent" to "released". */
export function runList(
  list: readonly TSESTree.Node[],
  start: number,
  released: boolean,
  env: Env,
  flow: Flow,
): Outcome {
  let state: Outcome = { released, terminated: false };
  for (const statement of list.slice(start)) {
    if (state.terminated) break;
    state = runStatement(statement, state.released, env, flow);
  }
  return state;
}

function merge(a: Outcome, b: Outcome): Outcome {
  if (a.terminated) return b;
  if (b.terminated) return a;
  return { released: a.released && b.released, terminated: false };
}

function runStatement(statement: TSESTree.Node, released: boolean, env: Env, flow: Flow): Outcome {
  const leak = (at: TSESTree.Node): void => {
    if (!released) flow.leaks.push(at);
  };
  switch (statement.type) {
    case AST_NODE_TYPES.BlockStatement:
      return runList(statement.body, 0, released, env, flow);
    case AST_NODE_TYPES.ReturnStatement: {
      // `return client` / `return new Wrapper(client)`: the caller owns it now.
      if (holds(statement, flow.escapes) || holds(statement, flow.releases))
        return { released: true, terminated: true };
      leak(statement);
      return { released, terminated: true };
    }
    case AST_NODE_TYPES.ThrowStatement:
      if (!env.caught) leak(statement);
      return { released, terminated: true };
    case AST_NODE_TYPES.IfStatement: {
      const awaited = firstAwait(statement.test, flow);
      if (awaited && !env.caught) leak(awaited);
      const consequent = runStatement(statement.consequent, released, env, flow);
      const alternate = statement.alternate
        ? runStatement(statement.alternate, released, env, flow)
        : { released, terminated: false };
      return merge(consequent, alternate);
    }
    case AST_NODE_TYPES.TryStatement: {
      if (statement.finalizer && holds(statement.finalizer, flow.releases))
        return { released: true, terminated: false };
      const handler = statement.handler;
      const block = runList(statement.block.body, 0, released, { caught: env.caught || handler !== null }, flow);
      const caught = handler ? runList(handler.body.body, 0, released, env, flow) : undefined;
      const merged = caught ? merge(block, caught) : block;
      if (statement.finalizer) {
        const after = runList(statement.finalizer.body, 0, merged.released, env, flow);
        return { released: after.released, terminated: merged.terminated || after.terminated };
      }
      return merged;
    }
    default: {
      if (released) return { released, terminated: false };
      // Loops, switches and expressions: any release inside counts (be pragmatic); awaited
      // work before it throws past it.
      const awaited = firstAwait(statement, flow);
      const release = flow.releases.find((call) => contains(statement, call));
      // `await conn.end()`: the awaited work is the release itself.
      if (awaited && !env.caught && !(release && (release.range[0] < awaited.range[0] || contains(awaited, release))))
        leak(awaited);
      if (release) return { released: true, terminated: false };
      if (
        someInside(
          statement,
          (inner) => inner.type === AST_NODE_TYPES.ReturnStatement && !holds(inner, flow.escapes),
          flow,
        )
      ) {
        leak(statement);
      }
      if (!env.caught && someInside(statement, (inner) => inner.type === AST_NODE_TYPES.ThrowStatement, flow))
        leak(statement);
      return { released, terminated: false };
    }
  }
}

/** True when an enclosing `try` (between the acquisition and its function) releases in `catch` or `finally`. */
export function protectedByEnclosingTry(statement: TSESTree.Node, releases: readonly TSESTree.Node[]): boolean {
  for (let node: TSESTree.Node = statement; node.parent; node = node.parent) {
    const parent = node.parent;
    if (isFunction(parent)) return false;
    if (parent.type === AST_NODE_TYPES.TryStatement && parent.block === node) {
      const guards = [parent.handler, parent.finalizer].filter((guard) => guard !== null);
      if (guards.some((guard) => releases.some((release) => contains(guard, release)))) return true;
    }
  }
  return false;
}
