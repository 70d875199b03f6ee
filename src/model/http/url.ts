import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';

import { type Scope } from '../ast/context.js';
import { unwrap } from '../ast/nodes.js';
import { resolveValue } from '../ast/values.js';

/**
 * Where a request's URL points, as far as the code shows it:
 * - `relative`: `'/api/x'`, `` `/api/${id}` ``, `'./x'` — only a page resolves these (Node's
 *   fetch throws on them), so the code runs in a browser;
 * - `local`: a file or resource of the program itself — `new URL('./font.ttf', import.meta.url)`,
 *   `file:`, `data:` and `blob:` URLs — which no remote server can hold up;
 * - `undefined`: a network URL, or one the code does not show.
 */
export type UrlTarget = 'relative' | 'local';

export function urlTarget(node: TSESTree.Node | undefined, scope: Scope): UrlTarget | undefined {
  if (!node) return undefined;
  return targetOf(unwrap(resolveValue(node, scope)), scope, 0);
}

function targetOf(node: TSESTree.Node, scope: Scope, depth: number): UrlTarget | undefined {
  if (depth > 3) return undefined;
  // `cond ? '/preview/a.css' : manifest.path`: one branch the code expects a page to resolve is enough.
  if (node.type === AST_NODE_TYPES.ConditionalExpression || node.type === AST_NODE_TYPES.LogicalExpression) {
    const [left, right] =
      node.type === AST_NODE_TYPES.ConditionalExpression ? [node.consequent, node.alternate] : [node.left, node.right];
    return (
      targetOf(unwrap(resolveValue(left, scope)), scope, depth + 1) ??
      targetOf(unwrap(resolveValue(right, scope)), scope, depth + 1)
    );
  }
  if (node.type === AST_NODE_TYPES.NewExpression) return isModuleRelativeUrl(node, scope) ? 'local' : undefined;
  const head = leadingText(node);
  if (head === undefined) return undefined;
  if (/^(?:file|data|blob):/i.test(head)) return 'local';
  if ((head.startsWith('/') && !head.startsWith('//')) || head.startsWith('./') || head.startsWith('../'))
    return 'relative';
  return undefined;
}

/** The text a string literal or template literal starts with. */
function leadingText(node: TSESTree.Node): string | undefined {
  if (node.type === AST_NODE_TYPES.Literal && typeof node.value === 'string') return node.value;
  if (node.type === AST_NODE_TYPES.TemplateLiteral) return node.quasis[0]?.value.cooked ?? undefined;
  return undefined;
}

/** `new URL(path, import.meta.url)`: a file bundled or shipped beside the module. */
function isModuleRelativeUrl(node: TSESTree.NewExpression, scope: Scope): boolean {
  if (node.callee.type !== AST_NODE_TYPES.Identifier || node.callee.name !== 'URL') return false;
  const base = node.arguments[1] && unwrap(resolveValue(node.arguments[1], scope));
  return (
    base?.type === AST_NODE_TYPES.MemberExpression &&
    base.object.type === AST_NODE_TYPES.MetaProperty &&
    base.object.meta.name === 'import' &&
    !base.computed &&
    base.property.type === AST_NODE_TYPES.Identifier &&
    base.property.name === 'url'
  );
}
