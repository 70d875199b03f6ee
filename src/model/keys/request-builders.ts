import { AST_NODE_TYPES, TSESLint, type TSESTree } from '@typescript-eslint/utils';

import { enclosingFunction, unwrap } from '../ast/nodes.js';
import { findVariable, staticString } from '../ast/values.js';
import { memberName } from '../ast/names.js';
import { thisField, writtenProperty } from '../http/held-headers.js';
import { type OutgoingRequest, type HeaderEntry } from '../http/request.js';
import { type AnyRuleContext } from '../ast/context.js';
import { isFunction } from '../ast/function.js';
import { walk } from '../ast/walk.js';
import { findPerAttemptValue } from './per-attempt.js';
import { testsMethodOnTheWay } from './interceptors.js';

const { DefinitionType } = TSESLint.Scope;

/**
 * Request builders and wrappers that serve every method: a class whose request takes its method
 * from a field (`new Request(HttpMethod.GET, path)` kept as `this.method`), or a function whose
 * method is its caller's parameter (`send(method, path, body)`). When such a builder adds a key it
 * mints itself without looking at the method, its list and get requests carry one as well, unlike
 * an SDK that keys only `POST` (or every method but `GET`).
 */

/**
 * True when the key written into `this.<field>` (`this.headerParams['idempotency-key'] = 'auto_' +
 * uuid()`) is minted here, with no test of the method on the way, and a request of the same class
 * sends those headers (`headers: this.headerParams` or `{ ...this.headerParams }`) with a method
 * read from a field or a parameter.
 */
export function keysEveryBuiltRequest(
  write: TSESTree.AssignmentExpression | TSESTree.CallExpression,
  holder: TSESTree.Node,
  value: TSESTree.Node,
  context: AnyRuleContext,
): boolean {
  const field = thisField(holder);
  if (field === undefined || !findPerAttemptValue(value, context)) return false;
  let member: TSESTree.Node | undefined = write.parent;
  while (member && !isFunction(member)) member = member.parent;
  if (!member || testsMethodOnTheWay(write, member, context)) return false;
  let classBody: TSESTree.Node | undefined = member.parent;
  while (classBody && classBody.type !== AST_NODE_TYPES.ClassBody) classBody = classBody.parent;
  if (!classBody) return false;
  return walk(classBody, context, (node) => {
    if (node.type !== AST_NODE_TYPES.ObjectExpression) return undefined;
    const headers = writtenProperty(node, 'headers');
    const method = writtenProperty(node, 'method');
    if (!headers || !method || !holdsField(headers.value, field)) return undefined;
    return methodFromCaller(method.value, context) ? 'stop' : undefined;
  });
}

/**
 * True when a request whose method its caller chooses (`fetch(url, { method, headers: { ... } })`
 * in `send(method, path, body)`) carries a key header minted in the same function, with no test of
 * the method on the way: the wrapper's reads carry one too.
 */
export function keysEveryMethodOf(request: OutgoingRequest, entry: HeaderEntry, context: AnyRuleContext): boolean {
  const method = request.options && writtenProperty(request.options, 'method');
  if (!method || !methodFromCaller(method.value, context) || !findPerAttemptValue(entry.value, context)) return false;
  const fn = enclosingFunction(request.call);
  return fn !== undefined && !testsMethodOnTheWay(entry.node, fn, context);
}

/**
 * True when the `method` of a request's options is not fixed here: read from a field of the
 * instance (`this.method.toString()`) or from a parameter of the enclosing function.
 */
function methodFromCaller(node: TSESTree.Node, context: AnyRuleContext): boolean {
  const scope = context.sourceCode.getScope(node);
  if (staticString(node, scope) !== undefined) return false;
  let target = unwrap(node);
  // `method.toUpperCase()`, `this.method.toString()`: the same method, spelt otherwise.
  while (
    target.type === AST_NODE_TYPES.CallExpression &&
    target.callee.type === AST_NODE_TYPES.MemberExpression &&
    target.arguments.length === 0
  )
    target = unwrap(target.callee.object);
  if (target.type === AST_NODE_TYPES.MemberExpression)
    return unwrap(target.object).type === AST_NODE_TYPES.ThisExpression && memberName(target) === 'method';
  if (target.type !== AST_NODE_TYPES.Identifier) return false;
  const variable = findVariable(context.sourceCode.getScope(target), target);
  const def = variable?.defs.length === 1 ? variable.defs[0] : undefined;
  return def?.type === DefinitionType.Parameter;
}

/** `this.<field>` itself, or an object literal that spreads it. */
function holdsField(node: TSESTree.Node, field: string): boolean {
  const target = unwrap(node);
  if (thisField(target) === field) return true;
  return (
    target.type === AST_NODE_TYPES.ObjectExpression &&
    target.properties.some(
      (property) => property.type === AST_NODE_TYPES.SpreadElement && thisField(property.argument) === field,
    )
  );
}
