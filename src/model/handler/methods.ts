import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';
import { unwrap } from '../ast/nodes.js';
import { memberName } from '../ast/names.js';
import { type AnyRuleContext, type Scope } from '../ast/context.js';
import { isFunction, localClass, resolveFunction, resolveStaticMethod } from '../ast/function.js';
import { importSource } from '../modules.js';
import { enclosingClassBody, thisFieldValues } from '../ast/class-fields.js';
import { findProperty, singleInit } from '../ast/values.js';

/**
 * Handlers that are class methods: `new Worker(q, this.process.bind(this))`,
 * `handleMessage: this.handle.bind(this)`, `new Worker(q, this.processJob)`, and processors
 * that a base class or a registry calls: `class X extends BaseProcessor { async process(job: Job) }`.
 */

/**
 * The function `node` denotes: an inline function, a local one by name, `f.bind(…)`, `this.method`
 * of the enclosing class, `new Class(…).method` or `Class.method` (a static method) of a class
 * declared in the file.
 */
export function resolveHandlerFunction(node: TSESTree.Node, scope: Scope): TSESTree.FunctionLike | undefined {
  const direct = resolveFunction(node, scope);
  if (direct) return direct;
  const target = unwrap(node);
  // f.bind(this) / this.f.bind(this)
  if (
    target.type === AST_NODE_TYPES.CallExpression &&
    target.callee.type === AST_NODE_TYPES.MemberExpression &&
    memberName(target.callee) === 'bind'
  ) {
    return resolveHandlerFunction(target.callee.object, scope);
  }
  if (target.type === AST_NODE_TYPES.MemberExpression && unwrap(target.object).type === AST_NODE_TYPES.ThisExpression)
    return ownMethodOf(target);
  // `new Worker(deps).handle`: the method of a class declared in this file, on an instance made in
  // place or held once (`const handlerClass = new Lambda(); export const handler =
  // handlerClass.handler.bind(handlerClass)`, Powertools' pattern for decorated handlers:
  // docs.powertools.aws.dev/lambda/typescript/latest/core/logger/#class-method-decorator).
  if (target.type === AST_NODE_TYPES.MemberExpression && !target.computed) {
    const object = unwrap(target.object);
    const held = object.type === AST_NODE_TYPES.Identifier ? singleInit(object, scope) : undefined;
    const made = held?.type === AST_NODE_TYPES.NewExpression ? held : object;
    const cls = made.type === AST_NODE_TYPES.NewExpression ? unwrap(made.callee) : undefined;
    const declared = cls?.type === AST_NODE_TYPES.Identifier ? localClass(cls, scope) : undefined;
    const name = memberName(target);
    if (declared && name !== undefined) return classMethod(declared.body, name);
    // `registration.command`: a property of an object literal a binding holds once (`const
    // registration = { command: transfer, topicName }`).
    const literal = made.type === AST_NODE_TYPES.Identifier ? singleInit(made, scope) : undefined;
    const property =
      literal?.type === AST_NODE_TYPES.ObjectExpression && name !== undefined
        ? findProperty(literal, (key) => key === name, scope)
        : undefined;
    if (property && property !== 'unknown') return resolveHandlerFunction(property.value, scope);
  }
  // `EventNotifier.jobHandler`: a static method of a class declared in this file.
  return resolveStaticMethod(target, scope);
}

/**
 * The method (or function-valued field) of the enclosing class that `this.<name>` names:
 * `this.update(row)` in a class that declares `update` runs that method, whatever its name says.
 */
export function ownMethodOf(member: TSESTree.MemberExpression): TSESTree.FunctionLike | undefined {
  if (unwrap(member.object).type !== AST_NODE_TYPES.ThisExpression) return undefined;
  // `this.#handle`: a private method is a method of the class under its `#` name.
  const name =
    member.property.type === AST_NODE_TYPES.PrivateIdentifier ? `#${member.property.name}` : memberName(member);
  if (name === undefined) return undefined;
  const body = enclosingClassBody(member);
  return body ? classMethod(body, name) : objectMethod(member, name);
}

/**
 * `this.<name>` in a method of an object literal: the literal's own function under that name
 * (`{ run(id) { … }, process() { consume(q, (msg) => this.run(msg)) } }`). `this` in a method is
 * the object it is called on, the literal for `object.process()`; an arrow function takes the
 * `this` of the function around it (ECMAScript, OrdinaryCallBindThis and arrow functions' lexical this).
 */
function objectMethod(node: TSESTree.Node, name: string): TSESTree.FunctionLike | undefined {
  for (let current = node.parent; current; current = current.parent) {
    if (current.type !== AST_NODE_TYPES.FunctionExpression && current.type !== AST_NODE_TYPES.FunctionDeclaration)
      continue;
    const property = current.parent;
    if (property.type !== AST_NODE_TYPES.Property || property.value !== current) return undefined;
    const found = findProperty(property.parent, (key) => key === name);
    const value = found && found !== 'unknown' ? unwrap(found.value) : undefined;
    return value && isFunction(value) ? value : undefined;
  }
  return undefined;
}

/**
 * The function `this.<name>` holds when the class writes it once, in a method or the constructor
 * (`this.workerProcessor = async (job) => { … }`, then `new Worker(q, this.workerProcessor)`).
 */
export function thisFieldFunction(node: TSESTree.Node, context: AnyRuleContext): TSESTree.FunctionLike | undefined {
  const target = unwrap(node);
  if (target.type !== AST_NODE_TYPES.MemberExpression) return undefined;
  const values = thisFieldValues(target, context);
  const value = values?.length === 1 && values[0] ? unwrap(values[0]) : undefined;
  return value && isFunction(value) ? value : undefined;
}

/** A method (or arrow-function property) of a class body, by name. */
function classMethod(body: TSESTree.ClassBody, name: string): TSESTree.FunctionLike | undefined {
  for (const member of body.body) {
    if (
      (member.type === AST_NODE_TYPES.MethodDefinition || member.type === AST_NODE_TYPES.PropertyDefinition) &&
      !member.computed &&
      ((member.key.type === AST_NODE_TYPES.Identifier && member.key.name === name) ||
        (member.key.type === AST_NODE_TYPES.PrivateIdentifier && `#${member.key.name}` === name))
    ) {
      const value = member.value && unwrap(member.value);
      if (value && isFunction(value)) return value;
    }
  }
  return undefined;
}

/** The methods of a class body, with their names. */
export function classMethods(body: TSESTree.ClassBody): { name: string; member: TSESTree.MethodDefinition }[] {
  return body.body.flatMap((member) =>
    member.type === AST_NODE_TYPES.MethodDefinition &&
    member.kind === 'method' &&
    !member.computed &&
    member.key.type === AST_NODE_TYPES.Identifier
      ? [{ name: member.key.name, member }]
      : [],
  );
}

const JOB_MODULES: Record<string, 'bullmq' | 'bull'> = {
  bullmq: 'bullmq',
  '@taskforcesh/bullmq-pro': 'bullmq',
  bull: 'bull',
  '@nestjs/bull': 'bull',
  '@nestjs/bullmq': 'bullmq',
};

/** The method names a base class or a registry calls for each job. */
const PROCESS_METHODS = /^(?:process|processJob|handle|handleJob|perform|execute|run)$/;

/**
 * A subclass's job processor: a method named like one (`process`, `handle`, …) of a class that
 * extends another, whose first parameter is annotated with BullMQ's or Bull's `Job`; the base
 * class or the project's registry hands it each job.
 */
export function jobProcessorMethod(
  cls: TSESTree.ClassDeclaration | TSESTree.ClassExpression,
  scope: Scope,
): { fn: TSESTree.FunctionLike; broker: 'bullmq' | 'bull' }[] {
  if (!cls.superClass) return [];
  return classMethods(cls.body).flatMap(({ name, member }) => {
    if (!PROCESS_METHODS.test(name)) return [];
    const broker = jobModuleOf(member.value.params[0], scope);
    return broker ? [{ fn: member.value, broker }] : [];
  });
}

/** `job: Job<T>` with `Job` imported from BullMQ or Bull: which of the two. */
function jobModuleOf(param: TSESTree.Parameter | undefined, scope: Scope): 'bullmq' | 'bull' | undefined {
  if (param?.type !== AST_NODE_TYPES.Identifier) return undefined;
  const type = param.typeAnnotation?.typeAnnotation;
  if (type?.type !== AST_NODE_TYPES.TSTypeReference) return undefined;
  const name = type.typeName;
  const identifier =
    name.type === AST_NODE_TYPES.Identifier
      ? name
      : name.type === AST_NODE_TYPES.TSQualifiedName && name.left.type === AST_NODE_TYPES.Identifier
        ? name.left
        : undefined;
  if (!identifier) return undefined;
  const source = importSource(identifier, scope);
  if (!source) return undefined;
  const imported = name.type === AST_NODE_TYPES.TSQualifiedName ? name.right.name : source.imported;
  return imported === 'Job' ? JOB_MODULES[source.module] : undefined;
}
