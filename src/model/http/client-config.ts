import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';
import { unwrap } from '../ast/nodes.js';
import { findVariable, staticValue } from '../ast/values.js';
import { memberName, propertyKeyName } from '../ast/names.js';
import { forEachNode } from '../ast/walk.js';
import { type AnyRuleContext, type Scope } from '../ast/context.js';
import { walk } from '../ast/walk.js';

// ---------------------------------------------------------------------------
// File-wide facts: `axios.defaults.timeout = n`, interceptors that set a timeout or headers

interface FileFacts {
  /** Bindings whose defaults or interceptors set a timeout or signal. */
  bounded: Set<string>;
  /** Bindings whose defaults or interceptors are touched at all (headers may come from there). */
  configured: Set<string>;
}

const factsCache = new WeakMap<object, FileFacts>();

export function variableKey(identifier: TSESTree.Identifier, scope: Scope): string {
  const variable = findVariable(scope, identifier);
  const def = variable?.defs[0];
  return def ? `${def.name.range[0]}` : identifier.name;
}

export function fileFacts(context: AnyRuleContext): FileFacts {
  const cached = factsCache.get(context.sourceCode.ast);
  if (cached) return cached;
  const facts: FileFacts = { bounded: new Set(), configured: new Set() };
  forEachNode(context.sourceCode.ast, context, (node) => {
    if (node.type === AST_NODE_TYPES.MemberExpression) noteConfiguration(node, context, facts);
  });
  factsCache.set(context.sourceCode.ast, facts);
  return facts;
}

/** Notes `x.defaults.<...> = v` and `x.interceptors.request.use(fn)` on a binding `x`. */
function noteConfiguration(member: TSESTree.MemberExpression, context: AnyRuleContext, facts: FileFacts): void {
  const object = unwrap(member.object);
  if (object.type !== AST_NODE_TYPES.Identifier) return;
  const name = memberName(member);
  if (name !== 'defaults' && name !== 'interceptors') return;
  const scope = context.sourceCode.getScope(member);
  const key = variableKey(object, scope);
  // needle's `needle.defaults({ response_timeout })`, a statement, changes every later request's defaults
  // (the request package's `request.defaults(cfg)` returns a new instance instead, and is used).
  if (
    name === 'defaults' &&
    member.parent.type === AST_NODE_TYPES.CallExpression &&
    member.parent.callee === member &&
    member.parent.parent.type === AST_NODE_TYPES.ExpressionStatement
  ) {
    const config = member.parent.arguments[0];
    if (config?.type !== AST_NODE_TYPES.ObjectExpression) return;
    facts.configured.add(key);
    const bounds = config.properties.some(
      (property) =>
        property.type === AST_NODE_TYPES.SpreadElement ||
        ['response_timeout', 'read_timeout', 'signal'].includes(propertyKeyName(property, scope) ?? ''),
    );
    if (bounds) facts.bounded.add(key);
    return;
  }
  if (name === 'defaults') {
    // Walk up to the assignment: x.defaults.timeout = n, x.defaults.headers.common[k] = v.
    let top: TSESTree.Node = member;
    const path: string[] = [];
    while (top.parent.type === AST_NODE_TYPES.MemberExpression && top.parent.object === top) {
      path.push(memberName(top.parent, scope) ?? '');
      top = top.parent;
    }
    if (top.parent.type !== AST_NODE_TYPES.AssignmentExpression || top.parent.left !== top) return;
    facts.configured.add(key);
    if (path[0] === 'timeout' || path[0] === 'signal') {
      const value = staticValue(top.parent.right, scope);
      if (!value || (value.value !== 0 && value.value !== Infinity && value.value !== false)) facts.bounded.add(key);
    }
    return;
  }
  // x.interceptors.request.use(fn)
  const request = member.parent;
  if (request.type !== AST_NODE_TYPES.MemberExpression || memberName(request) !== 'request') return;
  facts.configured.add(key);
  const use = request.parent;
  const call = use.parent;
  if (
    use.type !== AST_NODE_TYPES.MemberExpression ||
    memberName(use) !== 'use' ||
    call?.type !== AST_NODE_TYPES.CallExpression
  )
    return;
  const handler = call.arguments[0];
  if (handler && walk(handler, context, (node) => (setsTimeout(node) ? 'stop' : undefined))) facts.bounded.add(key);
}

/** `config.timeout = n`, `config.signal = s`, or `{ timeout: n }` / `{ signal }` written in an interceptor. */
function setsTimeout(node: TSESTree.Node): boolean {
  const isTimeoutName = (name: string | undefined): boolean => name === 'timeout' || name === 'signal';
  if (node.type === AST_NODE_TYPES.AssignmentExpression && node.left.type === AST_NODE_TYPES.MemberExpression) {
    return isTimeoutName(memberName(node.left));
  }
  return (
    node.type === AST_NODE_TYPES.Property &&
    node.parent.type === AST_NODE_TYPES.ObjectExpression &&
    isTimeoutName(propertyKeyName(node))
  );
}
