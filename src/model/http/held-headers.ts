import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';
import { unwrap } from '../ast/nodes.js';
import { staticString } from '../ast/values.js';
import { memberName, propertyKeyName } from '../ast/names.js';
import { type AnyRuleContext } from '../ast/context.js';
import { isReadMethod } from './request.js';
import { walk } from '../ast/walk.js';

// ---------------------------------------------------------------------------
// Headers held on an instance and shared by all of its requests

export interface HeldHeadersRead {
  /** The `headers: this.<name>` property of the read request's options. */
  node: TSESTree.Property;
  method: string;
}

/**
 * The read requests (options literals with a static GET/HEAD/OPTIONS `method`) in the same
 * class that send the headers object held at `holder` (`this.headers`). A header written
 * into that object stays for every later request of the instance. Empty when the class
 * deletes `name` from the holder again (the write is scoped to one request).
 */
export function readsSendingHeldHeaders(
  holder: TSESTree.Node,
  name: string,
  context: AnyRuleContext,
): HeldHeadersRead[] {
  const field = thisField(holder);
  if (field === undefined) return [];
  let classBody: TSESTree.Node | undefined = holder.parent;
  while (classBody && classBody.type !== AST_NODE_TYPES.ClassBody) classBody = classBody.parent;
  if (!classBody) return [];

  const reads: HeldHeadersRead[] = [];
  const state = { removed: false };
  walk(classBody, context, (node) => {
    if (
      node.type === AST_NODE_TYPES.CallExpression &&
      node.callee.type === AST_NODE_TYPES.MemberExpression &&
      memberName(node.callee) === 'delete' &&
      thisField(node.callee.object) === field &&
      node.arguments[0] !== undefined &&
      staticString(node.arguments[0], context.sourceCode.getScope(node))?.toLowerCase() === name.toLowerCase()
    ) {
      state.removed = true;
    }
    if (node.type !== AST_NODE_TYPES.ObjectExpression) return;
    const scope = context.sourceCode.getScope(node);
    // Written properties count even beside a spread: the spread passes per-call extras.
    const headers = writtenProperty(node, 'headers');
    const method = writtenProperty(node, 'method');
    const value = method && staticString(method.value, scope)?.toUpperCase();
    if (headers && thisField(headers.value) !== field) return;
    if (headers && isReadMethod(value)) reads.push({ node: headers, method: value ?? 'GET' });
    return;
  });
  return state.removed ? [] : reads;
}

/** The last property written with this name (spreads ignored). */
export function writtenProperty(object: TSESTree.ObjectExpression, name: string): TSESTree.Property | undefined {
  let found: TSESTree.Property | undefined;
  for (const property of object.properties) {
    if (property.type === AST_NODE_TYPES.Property && propertyKeyName(property) === name) found = property;
  }
  return found;
}

/** `x` for `this.x`, else undefined. */
export function thisField(node: TSESTree.Node): string | undefined {
  const target = unwrap(node);
  if (target.type !== AST_NODE_TYPES.MemberExpression || unwrap(target.object).type !== AST_NODE_TYPES.ThisExpression)
    return undefined;
  return memberName(target);
}
