import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';
import { type Scope } from './context.js';
import { unwrap } from './nodes.js';
import { staticString } from './values.js';

/** The name of a property key (`a`, `'a'`, `["a"]`), or undefined when it is computed from a non-literal. */
export function propertyKeyName(
  property: TSESTree.Property | TSESTree.MethodDefinition | TSESTree.PropertyDefinition,
  scope?: Scope,
): string | undefined {
  if (!property.computed && property.key.type === AST_NODE_TYPES.Identifier) return property.key.name;
  if (property.key.type === AST_NODE_TYPES.Literal) return String(property.key.value);
  if (property.computed && scope) return staticString(property.key, scope);
  return undefined;
}

/** The statically known name of a member access (`a.b`, `a['b']`). */
export function memberName(member: TSESTree.MemberExpression, scope?: Scope): string | undefined {
  if (!member.computed && member.property.type === AST_NODE_TYPES.Identifier) return member.property.name;
  if (member.property.type === AST_NODE_TYPES.Literal) return String(member.property.value);
  if (member.computed && scope) return staticString(member.property, scope);
  return undefined;
}

/**
 * The dotted path of a callee or member chain: `axios.post` → ['axios', 'post'],
 * `this.pool.query` → ['this', 'pool', 'query'], `fetch` → ['fetch'].
 * Returns undefined when a part is not statically named.
 */
export function memberPath(node: TSESTree.Node, scope?: Scope): string[] | undefined {
  const target = unwrap(node);
  switch (target.type) {
    case AST_NODE_TYPES.Identifier:
      return [target.name];
    case AST_NODE_TYPES.ThisExpression:
      return ['this'];
    case AST_NODE_TYPES.Super:
      return ['super'];
    case AST_NODE_TYPES.MemberExpression: {
      const name = memberName(target, scope);
      if (name === undefined) return undefined;
      const head = memberPath(target.object, scope);
      return head && [...head, name];
    }
    default:
      return undefined;
  }
}

/** The name an identifier or a member access ends in: `db` for `db`, `query` for `this.db.query`. */
export function endName(node: TSESTree.Node): string | undefined {
  if (node.type === AST_NODE_TYPES.Identifier) return node.name;
  if (node.type === AST_NODE_TYPES.MemberExpression) return memberName(node);
  return undefined;
}

export function calleeName(node: TSESTree.Node): string | undefined {
  if (node.type !== AST_NODE_TYPES.CallExpression && node.type !== AST_NODE_TYPES.NewExpression) return undefined;
  return endName(unwrap(node.callee));
}

/** The last name of a member path (`this.queues.mail` → `mail`). */
export function lastName(node: TSESTree.Node, scope: Scope): string | undefined {
  const path = memberPath(node, scope);
  return path?.[path.length - 1];
}

/** The name an import or export specifier gives: `export { a as b }` gives `b`, `export { a as 'b-c' }` gives `b-c`. */
export function moduleExportName(node: TSESTree.Identifier | TSESTree.StringLiteral): string {
  return node.type === AST_NODE_TYPES.Identifier ? node.name : node.value;
}
