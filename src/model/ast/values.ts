import { ASTUtils, AST_NODE_TYPES, TSESLint, type TSESTree } from '@typescript-eslint/utils';
import { type AnyRuleContext, type Scope } from './context.js';
import { memberName, propertyKeyName } from './names.js';
import { unwrap } from './nodes.js';

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

/**
 * The property of an object literal written under that name, whatever a spread beside it may
 * hold: an option the code spells out in place (`{ controller: { onEvent }, ...stores }`), where
 * {@link findProperty} stays quiet because `stores` could override it.
 */
export function writtenProperty(
  object: TSESTree.ObjectExpression,
  matches: (name: string) => boolean,
  scope?: Scope,
): TSESTree.Property | undefined {
  for (const property of [...object.properties].reverse()) {
    if (property.type === AST_NODE_TYPES.SpreadElement) continue;
    const name = propertyKeyName(property, scope);
    if (name !== undefined && matches(name)) return property;
  }
  return undefined;
}

/** The method calls made on a binding (`x.push(a)`, `x.startTransaction()`), with the method's name. */
export function methodCallsOn(
  identifier: TSESTree.Identifier,
  context: AnyRuleContext,
): { call: TSESTree.CallExpression; method: string | undefined }[] {
  const variable = findVariable(context.sourceCode.getScope(identifier), identifier);
  return (variable?.references ?? []).flatMap((reference) => {
    const member = reference.identifier.parent;
    if (member.type !== AST_NODE_TYPES.MemberExpression || member.object !== reference.identifier) return [];
    const call = member.parent;
    if (call.type !== AST_NODE_TYPES.CallExpression || call.callee !== member) return [];
    return [{ call, method: memberName(member, context.sourceCode.getScope(member)) }];
  });
}

/** The variable an identifier refers to, looked up from the given scope outwards. */
/** A variable of its module's own scope (an ES module's, or a script's global one): shared by every call of the module. */
export function isModuleScoped(variable: TSESLint.Scope.Variable): boolean {
  const type = variable.scope.type;
  return type === TSESLint.Scope.ScopeType.module || type === TSESLint.Scope.ScopeType.global;
}

export function findVariable(scope: Scope, identifier: TSESTree.Identifier | string): TSESLint.Scope.Variable | null {
  if (typeof identifier !== 'string' && isOwnFunctionName(identifier, scope))
    return ASTUtils.findVariable(scope.upper ?? scope, identifier.name);
  return ASTUtils.findVariable(scope, identifier);
}

/**
 * A function's own name is bound outside its body, but `sourceCode.getScope(fn.id)` is the
 * function's scope (and a lookup by node descends into the innermost scope around it), where a
 * parameter or a local of the same name would be found first, and its uses taken for calls of the
 * function itself: `async function load() { const { load } = await import('./impl'); return load(); }`,
 * a lazy-loading wrapper, would call itself. Such a name is looked up by name, from the scope around
 * the function.
 */
function isOwnFunctionName(identifier: TSESTree.Identifier, scope: Scope): boolean {
  const parent = identifier.parent;
  return (
    (parent.type === AST_NODE_TYPES.FunctionDeclaration || parent.type === AST_NODE_TYPES.FunctionExpression) &&
    parent.id === identifier &&
    scope.block === parent
  );
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

/** The value of a binding that is written exactly once (its initialiser, or its one `=` after a bare declaration), or undefined. */
export function singleInit(identifier: TSESTree.Identifier, scope: Scope): TSESTree.Expression | undefined {
  const variable = findVariable(scope, identifier);
  if (variable?.defs.length !== 1) return undefined;
  const [def] = variable.defs;
  if (!def || def.node.type !== AST_NODE_TYPES.VariableDeclarator || def.node.id.type !== AST_NODE_TYPES.Identifier)
    return undefined;
  const writes = variable.references.filter((reference) => reference.isWrite());
  if (writes.length > 1) return undefined;
  // `let event; try { event = constructEvent(…) } catch …`: declared without a value and given one
  // once, which is its value.
  if (def.node.init) return def.node.init;
  const write = writes[0]?.writeExpr;
  const assignment = write?.parent;
  return assignment?.type === AST_NODE_TYPES.AssignmentExpression && assignment.operator === '='
    ? assignment.right
    : undefined;
}

/** What a receiver was created from: the resolved initialiser, or the node. */
export function origin(receiver: TSESTree.Node, scope: Scope): TSESTree.Node {
  return unwrap(resolveValue(receiver, scope));
}
