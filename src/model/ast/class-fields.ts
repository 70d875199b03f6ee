import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';

import { type AnyRuleContext } from './context.js';
import { memberName, propertyKeyName } from './names.js';
import { unwrap } from './nodes.js';
import { walk } from './walk.js';

/**
 * What the class gives `this.<name>`: the field's initialiser (`private http = axios.create()`)
 * and every `this.<name> = value` in the class (not in nested classes). Undefined when the code
 * does not show all of them: `this.x` outside a class, a constructor parameter property, a
 * computed name, or a field that is declared but never written here (it is injected).
 */
export function thisFieldValues(
  member: TSESTree.MemberExpression,
  context: AnyRuleContext,
): TSESTree.Node[] | undefined {
  if (unwrap(member.object).type !== AST_NODE_TYPES.ThisExpression || member.computed) return undefined;
  const name = memberName(member);
  const body = enclosingClassBody(member);
  if (name === undefined || !body) return undefined;
  const values: TSESTree.Node[] = [];
  for (const declaration of thisFieldDeclarations(body, name)) {
    // A constructor parameter property is injected.
    if (declaration.type === AST_NODE_TYPES.Identifier) return undefined;
    if (declaration.value) values.push(declaration.value);
  }
  // A compound assignment (`this.x ??= make()`) is a write the code does not spell out.
  const compound: TSESTree.Node[] = [];
  walk(body, context, (node) => {
    if (node.type === AST_NODE_TYPES.ClassBody && node !== body) return 'skip';
    if (
      node.type === AST_NODE_TYPES.AssignmentExpression &&
      node.left.type === AST_NODE_TYPES.MemberExpression &&
      unwrap(node.left.object).type === AST_NODE_TYPES.ThisExpression &&
      memberName(node.left) === name
    ) {
      if (node.operator === '=') values.push(node.right);
      else compound.push(node);
    }
    return undefined;
  });
  return compound.length > 0 || values.length === 0 ? undefined : values;
}

/**
 * Where a class declares `this.<name>`, in the order they stand: its instance field
 * (`private pool: Pool = …`) and its constructor's parameter property (`constructor(private pool: Pool)`),
 * the parameter's identifier, which holds its annotation.
 */
export function thisFieldDeclarations(
  body: TSESTree.ClassBody,
  name: string,
): (TSESTree.PropertyDefinition | TSESTree.Identifier)[] {
  const found: (TSESTree.PropertyDefinition | TSESTree.Identifier)[] = [];
  for (const element of body.body) {
    if (element.type === AST_NODE_TYPES.PropertyDefinition && !element.static && propertyKeyName(element) === name)
      found.push(element);
    if (element.type === AST_NODE_TYPES.MethodDefinition && element.kind === 'constructor')
      for (const param of element.value.params)
        if (
          param.type === AST_NODE_TYPES.TSParameterProperty &&
          param.parameter.type === AST_NODE_TYPES.Identifier &&
          param.parameter.name === name
        )
          found.push(param.parameter);
  }
  return found;
}

/** The class body whose `this` `node` sees: arrow functions keep it, other functions do not. */
export function enclosingClassBody(node: TSESTree.Node): TSESTree.ClassBody | undefined {
  for (let current = node.parent; current; current = current.parent) {
    if (current.type === AST_NODE_TYPES.ClassBody) return current;
    // `this` in a plain function is not the class's.
    if (current.type === AST_NODE_TYPES.FunctionDeclaration || current.type === AST_NODE_TYPES.FunctionExpression) {
      if (current.parent.type !== AST_NODE_TYPES.MethodDefinition) return undefined;
    }
  }
  return undefined;
}

/** The classes a module declares at its top level, exported or not (`class A`, `export class B`, `export default class C`). */
export function topLevelClasses(program: TSESTree.Program): TSESTree.ClassDeclaration[] {
  return program.body.flatMap((statement) => {
    const declaration =
      statement.type === AST_NODE_TYPES.ExportNamedDeclaration ||
      statement.type === AST_NODE_TYPES.ExportDefaultDeclaration
        ? statement.declaration
        : statement;
    return declaration?.type === AST_NODE_TYPES.ClassDeclaration ? [declaration] : [];
  });
}
