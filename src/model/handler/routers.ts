import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';
import { unwrap } from '../ast/nodes.js';
import { origin, staticString } from '../ast/values.js';
import { calleeName, lastName, memberName } from '../ast/names.js';
import { importSource } from '../modules.js';
import { type Scope } from '../ast/context.js';

/**
 * HTTP routers: the receiver of a route registration (`app.post(…)`, `router.route(…)`), whose
 * POST routes may be webhooks (registrations.ts). The brokers are in `../libraries/`.
 */

const HTTP_MODULES = ['express', 'fastify', 'hono', 'koa-router', '@koa/router', 'restify', 'polka', 'h3'];

const ROUTER_FACTORIES = ['express', 'Router', 'fastify', 'Fastify', 'Hono', 'polka', 'createRouter'];

const ROUTER_NAMES =
  /^(app|router|server|api|fastify|hono|routes|route|instance|webhooks?|\w*(App|Router|Server|Routes))$/;

/**
 * Methods that return their own receiver, only retyped: Fastify's `withTypeProvider<T>()`
 * (`withTypeProvider () { return this }` in fastify.js; its docs chain routes on
 * `fastify().withTypeProvider<TypeBoxTypeProvider>()`).
 */
const RETYPING_METHODS: ReadonlySet<string> = new Set(['withTypeProvider']);

/** `app.withTypeProvider<T>()` → `app`: the instance a retyping call returns. */
function throughRetyping(node: TSESTree.Node): TSESTree.Node {
  let current = unwrap(node);
  while (
    current.type === AST_NODE_TYPES.CallExpression &&
    current.callee.type === AST_NODE_TYPES.MemberExpression &&
    RETYPING_METHODS.has(memberName(current.callee) ?? '')
  )
    current = unwrap(current.callee.object);
  return current;
}

export function isHttpRouter(node: TSESTree.Node, scope: Scope, imports: ReadonlySet<string>): boolean {
  const receiver = throughRetyping(node);
  const created = throughRetyping(origin(receiver, scope));
  const factory = calleeName(created);
  if (factory !== undefined && ROUTER_FACTORIES.includes(factory)) return true;
  if (created.type === AST_NODE_TYPES.Identifier) {
    const source = importSource(created, scope);
    // msw's `http.post` registers a mock resolver, not a server route.
    if (source && !HTTP_MODULES.includes(source.module)) return false;
  }
  const name = lastName(receiver, scope);
  if (name === undefined || !ROUTER_NAMES.test(name)) return false;
  return HTTP_MODULES.some((module) => imports.has(module)) || name !== 'api';
}

export function routeMethods(node: TSESTree.Node, scope: Scope): string[] {
  const value = unwrap(node);
  if (value.type === AST_NODE_TYPES.ArrayExpression) {
    return value.elements.flatMap((element) => (element ? routeMethods(element, scope) : []));
  }
  const text = staticString(value, scope);
  return text === undefined ? [] : [text.toUpperCase()];
}
