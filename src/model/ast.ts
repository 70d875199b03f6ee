import { ASTUtils, AST_NODE_TYPES, TSESLint, type TSESTree } from '@typescript-eslint/utils';

/**
 * Small, shared AST helpers on ESTree. Everything here is syntax only; the domain
 * modules beside this file build on it.
 */

type Scope = TSESLint.Scope.Scope;

/** Strips wrappers that do not change a value: `await`, `(x as T)`, `x!`, `<T>x`, `x satisfies T`. */
export function unwrap(node: TSESTree.Node): TSESTree.Node {
  let current = node;
  for (;;) {
    switch (current.type) {
      case AST_NODE_TYPES.AwaitExpression:
        current = current.argument;
        break;
      case AST_NODE_TYPES.TSAsExpression:
      case AST_NODE_TYPES.TSNonNullExpression:
      case AST_NODE_TYPES.TSTypeAssertion:
      case AST_NODE_TYPES.TSSatisfiesExpression:
      case AST_NODE_TYPES.ChainExpression:
        current = current.expression;
        break;
      default:
        return current;
    }
  }
}

/** The name of a property key (`a`, `'a'`, `["a"]`), or undefined when it is computed from a non-literal. */
export function propertyKeyName(property: TSESTree.Property | TSESTree.MethodDefinition | TSESTree.PropertyDefinition, scope?: Scope): string | undefined {
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

/** A statically known string (literal, template, `const` string, concatenation), or undefined. */
export function staticString(node: TSESTree.Node, scope: Scope): string | undefined {
  const result = ASTUtils.getStaticValue(node, scope);
  if (result === null) return undefined;
  return typeof result.value === 'string' ? result.value : undefined;
}

/** A statically known value of any primitive type, or undefined. */
export function staticValue(node: TSESTree.Node, scope: Scope): { value: unknown } | undefined {
  const result = ASTUtils.getStaticValue(node, scope);
  return result === null ? undefined : { value: result.value };
}

/**
 * Finds a property of an object literal by name. Returns `'unknown'` when a spread or a
 * computed key could supply it, so callers can stay quiet instead of guessing.
 */
export function findProperty(
  object: TSESTree.ObjectExpression,
  matches: (name: string) => boolean,
  scope?: Scope,
): TSESTree.Property | 'unknown' | undefined {
  let unknown = false;
  // Later properties win, as at run time.
  for (const property of [...object.properties].reverse()) {
    if (property.type === AST_NODE_TYPES.SpreadElement) {
      unknown = true;
      continue;
    }
    const name = propertyKeyName(property, scope);
    if (name === undefined) {
      unknown = true;
      continue;
    }
    if (matches(name)) return unknown ? 'unknown' : property;
  }
  return unknown ? 'unknown' : undefined;
}

/** The variable an identifier refers to, looked up from the given scope outwards. */
export function findVariable(scope: Scope, identifier: TSESTree.Identifier | string): TSESLint.Scope.Variable | null {
  return ASTUtils.findVariable(scope, identifier);
}

/**
 * Follows an identifier to the single expression it was initialised with, when the
 * binding is never reassigned (`const x = ...`, or `let` written once). Follows chains of
 * such bindings up to a small depth. Returns the node itself when it cannot be followed.
 */
export function resolveValue(node: TSESTree.Node, scope: Scope, depth = 0): TSESTree.Node {
  const target = unwrap(node);
  if (target.type !== AST_NODE_TYPES.Identifier || depth > 8) return target;
  const init = singleInit(target, scope);
  return init === undefined ? target : resolveValue(init, scope, depth + 1);
}

/** The initialiser of a binding that is written exactly once, or undefined. */
export function singleInit(identifier: TSESTree.Identifier, scope: Scope): TSESTree.Expression | undefined {
  const variable = findVariable(scope, identifier);
  if (variable?.defs.length !== 1) return undefined;
  const [def] = variable.defs;
  if (!def || def.node.type !== AST_NODE_TYPES.VariableDeclarator || def.node.id.type !== AST_NODE_TYPES.Identifier) return undefined;
  const writes = variable.references.filter((reference) => reference.isWrite());
  if (writes.length > 1) return undefined;
  return def.node.init ?? undefined;
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

/** The innermost function containing a node, or undefined at module level. */
export function enclosingFunction(node: TSESTree.Node): TSESTree.FunctionLike | undefined {
  for (let current = node.parent; current; current = current.parent) {
    if (
      current.type === AST_NODE_TYPES.FunctionDeclaration ||
      current.type === AST_NODE_TYPES.FunctionExpression ||
      current.type === AST_NODE_TYPES.ArrowFunctionExpression
    ) {
      return current;
    }
  }
  return undefined;
}

/** True when `inner` lies within `outer` (by source range). */
export function contains(outer: TSESTree.Node, inner: TSESTree.Node): boolean {
  return outer.range[0] <= inner.range[0] && inner.range[1] <= outer.range[1];
}

/** The module a binding was imported from (`import x from 'm'`, `const x = require('m')`), with the imported name. */
export function importSource(
  identifier: TSESTree.Identifier,
  scope: Scope,
): { module: string; imported: string } | undefined {
  const variable = findVariable(scope, identifier);
  const def = variable?.defs[0];
  if (!def) return undefined;
  if (def.type === TSESLint.Scope.DefinitionType.ImportBinding) {
    const declaration = def.parent;
    const specifier = def.node;
    if (declaration.type !== AST_NODE_TYPES.ImportDeclaration) return undefined;
    const module = declaration.source.value;
    if (specifier.type === AST_NODE_TYPES.ImportDefaultSpecifier) return { module, imported: 'default' };
    if (specifier.type === AST_NODE_TYPES.ImportNamespaceSpecifier) return { module, imported: '*' };
    if (specifier.type === AST_NODE_TYPES.ImportSpecifier) {
      const imported = specifier.imported;
      return { module, imported: imported.type === AST_NODE_TYPES.Identifier ? imported.name : imported.value };
    }
    return undefined;
  }
  if (def.node.type === AST_NODE_TYPES.VariableDeclarator && def.node.init) {
    const init = unwrap(def.node.init);
    // const x = require('m') / const { a } = require('m') / const x = require('m').a
    const required = requiredModule(init);
    if (required !== undefined) {
      if (def.node.id.type === AST_NODE_TYPES.Identifier) return { module: required, imported: 'default' };
      if (def.node.id.type === AST_NODE_TYPES.ObjectPattern) {
        for (const property of def.node.id.properties) {
          if (
            property.type === AST_NODE_TYPES.Property &&
            property.value.type === AST_NODE_TYPES.Identifier &&
            property.value.name === identifier.name
          ) {
            return { module: required, imported: propertyKeyName(property) ?? identifier.name };
          }
        }
      }
    }
    if (init.type === AST_NODE_TYPES.MemberExpression) {
      const module = requiredModule(unwrap(init.object));
      const name = memberName(init);
      if (module !== undefined && name !== undefined) return { module, imported: name };
    }
  }
  return undefined;
}

function requiredModule(node: TSESTree.Node): string | undefined {
  if (
    node.type === AST_NODE_TYPES.CallExpression &&
    node.callee.type === AST_NODE_TYPES.Identifier &&
    node.callee.name === 'require' &&
    node.arguments[0]?.type === AST_NODE_TYPES.Literal &&
    typeof node.arguments[0].value === 'string'
  ) {
    return node.arguments[0].value;
  }
  return undefined;
}

/** The rule context every model function takes; rules pass their own `context`. */
export type AnyRuleContext = Readonly<TSESLint.RuleContext<string, readonly unknown[]>>;

/** True for an ESTree node (an object with a string `type`), as found among a node's keys. */
export function isNode(value: unknown): value is TSESTree.Node {
  return typeof value === 'object' && value !== null && typeof (value as { type?: unknown }).type === 'string';
}

/** The direct children of a node, in source order, by the parser's visitor keys. */
export function childNodes(node: TSESTree.Node, keys: TSESLint.SourceCode.VisitorKeys): TSESTree.Node[] {
  const result: TSESTree.Node[] = [];
  for (const key of keys[node.type] ?? []) {
    const child = (node as unknown as Record<string, unknown>)[key];
    if (Array.isArray(child)) {
      for (const item of child) if (isNode(item)) result.push(item);
    } else if (isNode(child)) {
      result.push(child);
    }
  }
  return result;
}

/** One step of ESLint's recorded traversal (`SourceCode#traverse()`): kind 1 visits a node. */
interface TraversalStep {
  kind: number;
  phase?: number;
  target: unknown;
}

/**
 * Visits every node of `root` in source order (entering each before its children). For the whole
 * file it reads ESLint's own traversal, which ESLint records once before any rule runs and keeps
 * (`SourceCode#traverse()`), so a model that needs the whole file does not walk it a second time.
 */
export function forEachNode(root: TSESTree.Node, context: AnyRuleContext, visit: (node: TSESTree.Node) => void): void {
  const sourceCode = context.sourceCode as unknown as { ast: unknown; traverse?: () => Iterable<TraversalStep> };
  if (root === sourceCode.ast && typeof sourceCode.traverse === 'function') {
    for (const step of sourceCode.traverse()) {
      if (step.kind === 1 && step.phase === 1) visit(step.target as TSESTree.Node);
    }
    return;
  }
  const keys = context.sourceCode.visitorKeys;
  const enter = (node: TSESTree.Node): void => {
    visit(node);
    for (const child of childNodes(node, keys)) enter(child);
  };
  enter(root);
}
