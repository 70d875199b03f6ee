import { AST_NODE_TYPES, TSESLint, type TSESTree } from '@typescript-eslint/utils';

import { enclosingFunction, unwrap } from '../ast/nodes.js';
import { findVariable, resolveValue } from '../ast/values.js';
import { memberName, propertyKeyName } from '../ast/names.js';
import { type AnyRuleContext, type Scope } from '../ast/context.js';
import { importedSummary } from '../settings.js';
import { isIdempotencyHeaderName } from './sinks.js';
import { isImportedKeyHeaderName } from './imported-names.js';
import { rootIdentifier } from './minting.js';
import { testsMethodOnTheWay } from './interceptors.js';

const { DefinitionType } = TSESLint.Scope;

/**
 * Requests one function sends on behalf of many: a REST client function installed as its own
 * `get` (`restClient.get = restClient`), and a request hook of a client library that writes
 * headers onto every request it sends (a devour middleware's `req`, ky / got `beforeRequest`,
 * ofetch `onRequest`). A key in their headers goes out with reads too.
 */

/** Method names under which a function serves reads. */
const READ_ALIASES = new Set(['get', 'head']);

/**
 * True when the function that makes `call` is also installed as a read (`client.get = client`,
 * `{ get: send }`): its request's method comes from its caller, and reads leave it unset.
 */
export function servesReads(call: TSESTree.CallExpression, context: AnyRuleContext): boolean {
  const fn = enclosingFunction(call);
  const id = fn && bindingOf(fn);
  if (!id) return false;
  const variable = findVariable(context.sourceCode.getScope(id), id);
  return (variable?.references ?? []).some((reference) => {
    const use = reference.identifier;
    const parent = use.parent;
    if (
      parent.type === AST_NODE_TYPES.AssignmentExpression &&
      parent.right === use &&
      parent.left.type === AST_NODE_TYPES.MemberExpression
    ) {
      const name = memberName(parent.left);
      return name !== undefined && READ_ALIASES.has(name);
    }
    if (parent.type === AST_NODE_TYPES.Property && parent.value === use) {
      const name = propertyKeyName(parent);
      return name !== undefined && READ_ALIASES.has(name);
    }
    return false;
  });
}

function bindingOf(fn: TSESTree.FunctionLike): TSESTree.Identifier | undefined {
  if (fn.type === AST_NODE_TYPES.FunctionDeclaration) return fn.id ?? undefined;
  const parent = fn.parent;
  return parent.type === AST_NODE_TYPES.VariableDeclarator && parent.id.type === AST_NODE_TYPES.Identifier
    ? parent.id
    : undefined;
}

/** Options of client libraries whose function runs before every request the client sends. */
const REQUEST_HOOKS = new Set(['req', 'request', 'onRequest', 'beforeRequest']);

/**
 * The idempotency header a request hook writes onto every request: `req.headers = { ...req.headers,
 * ...keyHeaders() }` in a function given as a client's `req` / `onRequest` / `beforeRequest` hook,
 * on the request its parameter carries, with no test of the method on the way. Undefined otherwise.
 */
export function keyHeaderOnEveryRequest(
  assignment: TSESTree.AssignmentExpression,
  context: AnyRuleContext,
): string | undefined {
  if (assignment.operator !== '=' || assignment.left.type !== AST_NODE_TYPES.MemberExpression) return undefined;
  if (memberName(assignment.left) !== 'headers') return undefined;
  const fn = enclosingFunction(assignment);
  if (!fn || !isRequestHook(fn) || !isFromParameter(assignment.left, fn, context)) return undefined;
  const scope = context.sourceCode.getScope(assignment);
  const name = keyHeaderIn(assignment.right, context, scope);
  if (name === undefined || testsMethodOnTheWay(assignment, fn, context)) return undefined;
  return name;
}

function isRequestHook(fn: TSESTree.FunctionLike): boolean {
  let holder: TSESTree.Node = fn.parent;
  if (holder.type === AST_NODE_TYPES.ArrayExpression) holder = holder.parent;
  if (holder.type !== AST_NODE_TYPES.Property) return false;
  const name = propertyKeyName(holder);
  return name !== undefined && REQUEST_HOOKS.has(name);
}

/** `req.headers` with `req` the hook's parameter, or taken from it (`const { req } = payload`). */
function isFromParameter(target: TSESTree.MemberExpression, fn: TSESTree.FunctionLike, context: AnyRuleContext) {
  const root = rootIdentifier(target);
  if (!root) return false;
  const variable = findVariable(context.sourceCode.getScope(target), root);
  const def = variable?.defs.length === 1 ? variable.defs[0] : undefined;
  if (!def) return false;
  if (def.type === DefinitionType.Parameter) return def.node === fn;
  if (def.type !== DefinitionType.Variable || !def.node.init) return false;
  const init = rootIdentifier(def.node.init);
  const source = init && findVariable(context.sourceCode.getScope(def.node), init)?.defs[0];
  return source?.type === DefinitionType.Parameter && source.node === fn;
}

/** The idempotency header an object of headers sets: by name, or through a key-header source of another module. */
function keyHeaderIn(node: TSESTree.Node, context: AnyRuleContext, scope: Scope): string | undefined {
  const value = resolveValue(node, scope);
  if (value.type !== AST_NODE_TYPES.ObjectExpression) return undefined;
  for (const property of value.properties) {
    if (property.type === AST_NODE_TYPES.SpreadElement) {
      let head = resolveValue(property.argument, scope);
      if (head.type === AST_NODE_TYPES.AwaitExpression) head = unwrap(head.argument);
      if (head.type === AST_NODE_TYPES.CallExpression) head = unwrap(head.callee);
      const root = rootIdentifier(head);
      if (root && importedSummary(root, context)?.keyHeaderSource) return 'Idempotency-Key';
      continue;
    }
    const name = propertyKeyName(property, scope);
    if (name !== undefined && isIdempotencyHeaderName(name)) return name;
    if (property.computed && isImportedKeyHeaderName(property.key, context)) return 'Idempotency-Key';
  }
  return undefined;
}
