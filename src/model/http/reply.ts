import { AST_NODE_TYPES, TSESLint, type TSESTree } from '@typescript-eslint/utils';

import { type AnyRuleContext, type Scope } from '../ast/context.js';
import { memberPath } from '../ast/names.js';
import { contains, unwrap } from '../ast/nodes.js';
import { findVariable } from '../ast/values.js';
import { forEachNode } from '../ast/walk.js';

const { DefinitionType } = TSESLint.Scope;

/** The classes a route handler builds its answer with (the Fetch API's, Next.js's). */
const RESPONSE_CLASSES = new Set(['Response', 'NextResponse']);

/**
 * Whether `statement` only answers the request `fn` handles, with nothing the statements before
 * it computed: `return res.json({ received: true })`, `res.sendStatus(200)`, `return
 * c.json(OK)`, `return new Response(null, { status: 200 })`, `return NextResponse.json({ ok:
 * true })`. The answer goes through a parameter of `fn` (Express's `res`, Hono's `c`, Fastify's
 * `reply`) or a response class; what it carries is literals and names bound outside `within`, so
 * the answer does not report the work done before it.
 */
export function isPlainReply(
  statement: TSESTree.Statement,
  fn: TSESTree.FunctionLike,
  within: TSESTree.Node,
  context: AnyRuleContext,
): boolean {
  let value: TSESTree.Node | null | undefined;
  if (statement.type === AST_NODE_TYPES.ReturnStatement) value = statement.argument;
  else if (statement.type === AST_NODE_TYPES.ExpressionStatement) value = statement.expression;
  if (!value) return false;
  const call = unwrap(value);
  if (call.type !== AST_NODE_TYPES.CallExpression && call.type !== AST_NODE_TYPES.NewExpression) return false;
  const scope = context.sourceCode.getScope(call);
  if (!answersThrough(call, fn, scope)) return false;
  let local = false;
  for (const argument of call.arguments)
    forEachNode(argument, context, (node) => {
      if (local || node.type !== AST_NODE_TYPES.Identifier) return;
      const def = findVariable(scope, node)?.defs[0];
      if (def && contains(within, def.name)) local = true;
    });
  return !local;
}

/** `res.status(200).json(…)` on a parameter of `fn`, or `new Response(…)`, `NextResponse.json(…)`. */
function answersThrough(
  call: TSESTree.CallExpression | TSESTree.NewExpression,
  fn: TSESTree.FunctionLike,
  scope: Scope,
): boolean {
  let root: TSESTree.Node = unwrap(call.callee);
  if (call.type === AST_NODE_TYPES.NewExpression)
    return root.type === AST_NODE_TYPES.Identifier && RESPONSE_CLASSES.has(root.name);
  if (root.type !== AST_NODE_TYPES.MemberExpression) return false;
  while (root.type === AST_NODE_TYPES.MemberExpression || root.type === AST_NODE_TYPES.CallExpression)
    root = unwrap(root.type === AST_NODE_TYPES.MemberExpression ? root.object : root.callee);
  if (root.type !== AST_NODE_TYPES.Identifier) return false;
  if (RESPONSE_CLASSES.has(root.name) && memberPath(call.callee)?.length === 2) return true;
  const def = findVariable(scope, root)?.defs[0];
  return def?.type === DefinitionType.Parameter && def.node === fn;
}
