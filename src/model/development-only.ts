import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';

import { isFunction } from './ast/function.js';
import { leaves, unwrap } from './ast/nodes.js';
import { memberPath } from './ast/names.js';
import { type Scope } from './ast/context.js';
import { staticString } from './ast/values.js';

/**
 * Code that runs only outside production, by the process's environment: inside a branch taken only
 * when `NODE_ENV` says development or test (`if (process.env.NODE_ENV === 'development') { … }`,
 * the `else` of `=== 'production'`, `isDev && …`), or after an early exit its function takes in
 * production (`if (IS_PRODUCTION) return new Response(null, { status: 404 });`). What such code
 * does never meets production traffic: a local tunnel lookup, a proxy for a local service.
 *
 * The environment is read from `process.env.NODE_ENV` compared with a string, or from a binding
 * named for it (`IS_PRODUCTION`, `isProd`, `IS_DEV`, `isDevelopment`): the convention that names
 * such a constant `NODE_ENV === 'production'`.
 */
export function runsOnlyOutsideProduction(node: TSESTree.Node, scope: Scope): boolean {
  for (let child = node, parent = node.parent; parent; child = parent, parent = parent.parent) {
    switch (parent.type) {
      case AST_NODE_TYPES.IfStatement:
      case AST_NODE_TYPES.ConditionalExpression: {
        const says = environmentTest(parent.test, scope);
        if (says === 'development' && child === parent.consequent) return true;
        if (says === 'production' && child === parent.alternate) return true;
        break;
      }
      case AST_NODE_TYPES.LogicalExpression:
        if (parent.operator === '&&' && child === parent.right && environmentTest(parent.left, scope) === 'development')
          return true;
        if (parent.operator === '||' && child === parent.right && environmentTest(parent.left, scope) === 'production')
          return true;
        break;
      case AST_NODE_TYPES.BlockStatement:
      case AST_NODE_TYPES.Program:
        if (exitsInProductionBefore(parent.body, child, scope)) return true;
        break;
      default:
        break;
    }
    // A function defined in such a branch exists only there; past a function's own body, its
    // callers decide, and they are not in sight.
    if (isFunction(parent) && !definedInBranch(parent)) return false;
  }
  return false;
}

/** A function value written in place (a callback, an IIFE), not a declaration others call. */
function definedInBranch(fn: TSESTree.FunctionLike): boolean {
  return fn.type !== AST_NODE_TYPES.FunctionDeclaration && fn.parent.type !== AST_NODE_TYPES.MethodDefinition;
}

/** A statement before `child` in `body` that leaves the function or script when running in production. */
function exitsInProductionBefore(body: readonly TSESTree.Node[], child: TSESTree.Node, scope: Scope): boolean {
  for (const statement of body) {
    if (statement === child) return false;
    if (
      statement.type === AST_NODE_TYPES.IfStatement &&
      statement.alternate === null &&
      environmentTest(statement.test, scope) === 'production' &&
      leaves(statement.consequent)
    )
      return true;
  }
  return false;
}

const PRODUCTION_NAME = /^(?:is_?prod(?:uction)?)$/i;
const DEVELOPMENT_NAME = /^(?:is_?dev(?:elopment)?)$/i;
const DEVELOPMENT_ENVIRONMENTS = new Set(['development', 'dev', 'test', 'local']);

/** What a condition says of the environment when it holds: production, development (or test), or nothing. */
function environmentTest(test: TSESTree.Node, scope: Scope): 'production' | 'development' | undefined {
  const node = unwrap(test);
  if (node.type === AST_NODE_TYPES.UnaryExpression && node.operator === '!') {
    const inner = environmentTest(node.argument, scope);
    return inner === 'production' ? 'development' : inner === 'development' ? 'production' : undefined;
  }
  if (node.type === AST_NODE_TYPES.Identifier) {
    if (PRODUCTION_NAME.test(node.name)) return 'production';
    if (DEVELOPMENT_NAME.test(node.name)) return 'development';
    return undefined;
  }
  if (node.type !== AST_NODE_TYPES.BinaryExpression || !['===', '==', '!==', '!='].includes(node.operator))
    return undefined;
  const [env, value] = isNodeEnv(node.left) ? [node.left, node.right] : [node.right, node.left];
  if (!isNodeEnv(env)) return undefined;
  const name = staticString(value, scope);
  if (name === undefined) return undefined;
  const holds = name === 'production' ? 'production' : DEVELOPMENT_ENVIRONMENTS.has(name) ? 'development' : undefined;
  if (holds === undefined || node.operator === '===' || node.operator === '==') return holds;
  // `!== 'production'` holds outside production; `!== 'development'` says nothing of production.
  return holds === 'production' ? 'development' : undefined;
}

/** `process.env.NODE_ENV`, `process.env['NODE_ENV']`. */
function isNodeEnv(node: TSESTree.Node): boolean {
  const path = memberPath(unwrap(node));
  return path?.length === 3 && path[0] === 'process' && path[1] === 'env' && path[2] === 'NODE_ENV';
}
