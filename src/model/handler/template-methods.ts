import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';
import { isFunction } from '../ast/function.js';
import { ownChildNodes } from '../ast/nodes.js';

/**
 * Template methods: a base class that takes deliveries itself (its method registers a handler with
 * a broker) and hands each to a method its subclasses write (`consumer.run({ eachMessage: async
 * ({ message }) => { this.data = parse(message); await this.run(); } })` in a `Consumer` base,
 * `onMessage(data, msg)` in a `Listener` base). Each subclass's override runs once per delivery
 * of the subclass's subscription, as the handler that calls it does: the subclasses' methods of
 * those names are handlers, wherever the subclasses are.
 */
export interface TemplateCalls {
  /** The class whose method holds the handler, by its declared name. */
  class: string;
  /** The methods the handler calls on `this`. */
  methods: string[];
}

/** The methods a handler calls on its class's instance (`this.run()`), when it is written inside a class. */
export function templateCalls(fn: TSESTree.FunctionLike): TemplateCalls | undefined {
  let cls: TSESTree.ClassDeclaration | TSESTree.ClassExpression | undefined;
  for (let node: TSESTree.Node | undefined = fn.parent; node; node = node.parent) {
    if (node.type === AST_NODE_TYPES.ClassDeclaration || node.type === AST_NODE_TYPES.ClassExpression) {
      cls = node;
      break;
    }
    // A `function` between the handler and the class has a `this` of its own.
    if (node.type === AST_NODE_TYPES.FunctionExpression && node.parent.type !== AST_NODE_TYPES.MethodDefinition)
      return undefined;
  }
  if (!cls?.id || fn.type === AST_NODE_TYPES.FunctionDeclaration) return undefined;
  if (fn.type === AST_NODE_TYPES.FunctionExpression && fn.parent.type !== AST_NODE_TYPES.MethodDefinition)
    return undefined;
  const methods = new Set<string>();
  const visit = (node: TSESTree.Node): void => {
    // Arrows keep the handler's `this`; a nested `function` has its own.
    if (node !== fn && isFunction(node) && node.type !== AST_NODE_TYPES.ArrowFunctionExpression) return;
    if (
      node.type === AST_NODE_TYPES.CallExpression &&
      node.callee.type === AST_NODE_TYPES.MemberExpression &&
      node.callee.object.type === AST_NODE_TYPES.ThisExpression &&
      !node.callee.computed &&
      node.callee.property.type === AST_NODE_TYPES.Identifier
    )
      methods.add(node.callee.property.name);
    for (const child of ownChildNodes(node)) visit(child);
  };
  if (fn.body) visit(fn.body);
  return methods.size > 0 ? { class: cls.id.name, methods: [...methods] } : undefined;
}
