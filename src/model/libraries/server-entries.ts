import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';

import { type Scope } from '../ast/context.js';
import { memberName } from '../ast/names.js';
import { unwrap } from '../ast/nodes.js';
import { findProperty, findVariable, resolveValue } from '../ast/values.js';

/**
 * Servers whose one handler takes every request, with no router between: Deno's
 * `Deno.serve(handler)`, `Deno.serve(options, handler)` and `Deno.serve({ handler })`
 * (https://docs.deno.com/api/deno/~/Deno.serve), the form a Supabase Edge Function takes
 * (https://supabase.com/docs/guides/functions), the standard library's older `serve(handler)`
 * (`https://deno.land/std/http/server.ts`), and Bun's `Bun.serve({ fetch })`
 * (https://bun.sh/docs/api/http). Such a handler is a webhook receiver when it checks the sender.
 */
const DENO_STD_HTTP =
  /^(?:https:\/\/deno\.land\/std(?:@[^/]+)?\/http\/server\.ts|jsr:@std\/http(?:@[^/]*)?(?:\/server)?)$/;

/** The handler a server entry call is given, or undefined when the call is none. */
export function servedHandler(
  call: TSESTree.CallExpression,
  scope: Scope,
  imports: ReadonlySet<string>,
): TSESTree.Node | undefined {
  const callee = unwrap(call.callee);
  const last = call.arguments.at(-1);
  if (!last) return undefined;
  if (callee.type === AST_NODE_TYPES.MemberExpression) {
    const receiver = unwrap(callee.object);
    if (receiver.type !== AST_NODE_TYPES.Identifier || memberName(callee) !== 'serve') return undefined;
    // The runtime's global, not a binding of the file's own.
    if ((findVariable(scope, receiver)?.defs.length ?? 0) > 0) return undefined;
    if (receiver.name === 'Deno') return optionsMember(last, 'handler', scope) ?? last;
    if (receiver.name === 'Bun') return optionsMember(last, 'fetch', scope);
    return undefined;
  }
  if (
    callee.type === AST_NODE_TYPES.Identifier &&
    callee.name === 'serve' &&
    [...imports].some((module) => DENO_STD_HTTP.test(module))
  )
    return last;
  return undefined;
}

function optionsMember(node: TSESTree.Node, name: string, scope: Scope): TSESTree.Node | undefined {
  const options = unwrap(resolveValue(node, scope));
  if (options.type !== AST_NODE_TYPES.ObjectExpression) return undefined;
  const property = findProperty(options, (key) => key === name, scope);
  return property && property !== 'unknown' ? property.value : undefined;
}
