import { AST_NODE_TYPES, TSESLint, type TSESTree } from '@typescript-eslint/utils';
import { unwrap } from './nodes.js';
import { findProperty, findVariable, resolveValue } from './values.js';
import { memberName } from './names.js';
import { type Scope } from './context.js';

const DefinitionType = TSESLint.Scope.DefinitionType;

/** True for the three function node types. */
export function isFunction(node: TSESTree.Node): node is TSESTree.FunctionLike {
  return (
    node.type === AST_NODE_TYPES.FunctionDeclaration ||
    node.type === AST_NODE_TYPES.FunctionExpression ||
    node.type === AST_NODE_TYPES.ArrowFunctionExpression
  );
}

/** The function an expression denotes: an inline function, or an identifier bound to one in this file. */
export function resolveFunction(node: TSESTree.Node, scope: Scope, hops = 0): TSESTree.FunctionLike | undefined {
  const target = unwrap(node);
  if (isFunction(target)) return target;
  if (target.type !== AST_NODE_TYPES.Identifier) return undefined;
  const variable = findVariable(scope, target);
  const def = variable?.defs[0];
  if (!variable || variable.defs.length !== 1 || !def) return undefined;
  // A parameter's definition node is its function: the parameter does not denote that function.
  if (def.type === DefinitionType.Parameter) return undefined;
  if (def.node.type === AST_NODE_TYPES.FunctionDeclaration) return def.node;
  if (def.node.type === AST_NODE_TYPES.VariableDeclarator && def.node.init) {
    if (variable.references.filter((reference) => reference.isWrite()).length > 1) return undefined;
    const init = unwrap(def.node.init);
    if (isFunction(init)) return init;
    // `export const main = cronJobHandler`: another name of a function, a few names deep.
    return init.type === AST_NODE_TYPES.Identifier && hops < ALIAS_HOPS
      ? resolveFunction(init, scope, hops + 1)
      : undefined;
  }
  return undefined;
}

/** How many `const a = b` names a function is followed through. */
const ALIAS_HOPS = 3;

/**
 * A method of an object literal bound in this file (`Http.request` of `const Http = { request()
 * {} }`): `{ method }` with the function its property holds, `{ method: undefined }` when the
 * literal has no such function; undefined when the receiver is not a literal of this file.
 */
export function objectLiteralMethod(
  member: TSESTree.MemberExpression,
  scope: Scope,
): { method: TSESTree.FunctionLike | undefined } | undefined {
  const object = unwrap(member.object);
  const literal = object.type === AST_NODE_TYPES.Identifier ? resolveValue(object, scope) : undefined;
  if (literal?.type !== AST_NODE_TYPES.ObjectExpression) return undefined;
  const name = memberName(member);
  const property = name === undefined ? 'unknown' : findProperty(literal, (key) => key === name, scope);
  if (property === undefined || property === 'unknown') return { method: undefined };
  return { method: resolveFunction(property.value, scope) };
}

/** The class declaration of this file an identifier names (`class Manager { … }`), if it names one. */
export function localClass(identifier: TSESTree.Identifier, scope: Scope): TSESTree.ClassDeclaration | undefined {
  const node = findVariable(scope, identifier)?.defs[0]?.node;
  return node?.type === AST_NODE_TYPES.ClassDeclaration ? node : undefined;
}

/** `Manager.register` where `Manager` is a class declared here: its static method `register`. */
export function resolveStaticMethod(node: TSESTree.Node, scope: Scope): TSESTree.FunctionLike | undefined {
  const target = unwrap(node);
  if (target.type !== AST_NODE_TYPES.MemberExpression || target.computed) return undefined;
  const object = unwrap(target.object);
  if (object.type !== AST_NODE_TYPES.Identifier || target.property.type !== AST_NODE_TYPES.Identifier) return undefined;
  const cls = localClass(object, scope);
  if (!cls) return undefined;
  const name = target.property.name;
  const method = cls.body.body.find(
    (member): member is TSESTree.MethodDefinition =>
      member.type === AST_NODE_TYPES.MethodDefinition &&
      member.static &&
      !member.computed &&
      member.key.type === AST_NODE_TYPES.Identifier &&
      member.key.name === name,
  );
  return method?.value;
}

/**
 * The function `fn` returns, when every return hands back the same one (`(deps) => async (job) => …`,
 * `function build() { return async function process(job) { … } }`, or a local bound to one).
 */
export function returnedFunction(fn: TSESTree.FunctionLike, scope: Scope): TSESTree.FunctionLike | undefined {
  if (!fn.body) return undefined;
  const returned = fn.body.type === AST_NODE_TYPES.BlockStatement ? returnedValues(fn.body) : [fn.body];
  const functions = new Set(returned.map((value) => resolveFunction(value, scope)));
  const [only] = functions;
  return functions.size === 1 ? only : undefined;
}

/**
 * The object literal `fn` returns, when every return hands back the same one (`(deps) => ({ async
 * send() {…} })`, `function create(db) { return { sync, notify } }`): a factory of a table.
 */
export function returnedObject(fn: TSESTree.FunctionLike, scope: Scope): TSESTree.ObjectExpression | undefined {
  if (!fn.body) return undefined;
  const returned = fn.body.type === AST_NODE_TYPES.BlockStatement ? returnedValues(fn.body) : [fn.body];
  const objects = new Set(returned.map((value) => resolveValue(value, scope)));
  const [only] = objects;
  return objects.size === 1 && only?.type === AST_NODE_TYPES.ObjectExpression ? only : undefined;
}

/** The `return` arguments of a function body, not those of nested functions. */
export function returnedValues(body: TSESTree.BlockStatement): TSESTree.Expression[] {
  const values: TSESTree.Expression[] = [];
  const visit = (node: TSESTree.Node): void => {
    if (node.type === AST_NODE_TYPES.ReturnStatement) {
      if (node.argument) values.push(node.argument);
      return;
    }
    if (
      node.type === AST_NODE_TYPES.FunctionDeclaration ||
      node.type === AST_NODE_TYPES.FunctionExpression ||
      node.type === AST_NODE_TYPES.ArrowFunctionExpression ||
      node.type === AST_NODE_TYPES.ClassBody
    ) {
      return;
    }
    for (const child of childStatements(node)) visit(child);
  };
  visit(body);
  return values;
}

/** The statements nested in a statement (blocks, branches, loops, try, switch, labels). */
function childStatements(node: TSESTree.Node): TSESTree.Node[] {
  switch (node.type) {
    case AST_NODE_TYPES.BlockStatement:
      return node.body;
    case AST_NODE_TYPES.IfStatement:
      return node.alternate ? [node.consequent, node.alternate] : [node.consequent];
    case AST_NODE_TYPES.TryStatement:
      return [node.block, ...(node.handler ? [node.handler.body] : []), ...(node.finalizer ? [node.finalizer] : [])];
    case AST_NODE_TYPES.ForStatement:
    case AST_NODE_TYPES.ForInStatement:
    case AST_NODE_TYPES.ForOfStatement:
    case AST_NODE_TYPES.WhileStatement:
    case AST_NODE_TYPES.DoWhileStatement:
    case AST_NODE_TYPES.LabeledStatement:
      return [node.body];
    case AST_NODE_TYPES.SwitchStatement:
      return node.cases.flatMap((switchCase) => switchCase.consequent);
    default:
      return [];
  }
}

/** The name a parameter binds, through a default (`p = {}`) and a constructor's parameter property; undefined for a pattern. */
export function parameterName(param: TSESTree.Parameter): string | undefined {
  const inner = param.type === AST_NODE_TYPES.TSParameterProperty ? param.parameter : param;
  const target = inner.type === AST_NODE_TYPES.AssignmentPattern ? inner.left : inner;
  return target.type === AST_NODE_TYPES.Identifier ? target.name : undefined;
}
