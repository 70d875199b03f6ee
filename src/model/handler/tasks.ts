import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';
import { unwrap } from '../ast/nodes.js';
import { findProperty, resolveValue, staticString } from '../ast/values.js';
import { memberName, memberPath } from '../ast/names.js';
import { type AnyRuleContext, type Scope } from '../ast/context.js';
import { importSource } from '../modules.js';
import { type Broker, type ConsumerHandler } from './consumer-handler.js';
import { resolveHandlerFunction } from './methods.js';

/**
 * Registrations of job and task runners beyond the classic brokers: trigger.dev `task`,
 * `schemaTask` and `schedules.task`; Inngest `createFunction`; pg-boss `work`; agenda `define`;
 * bee-queue `process`; graphile-worker task lists; Temporal `Worker.create({ activities })`;
 * Azure Service Bus `subscribe({ processMessage })`.
 */

/** The method and function names {@link taskRegistrations} reads, for the registration gate. */
export const TASK_METHODS: ReadonlySet<string> = new Set([
  'task',
  'schemaTask',
  'createFunction',
  'work',
  'define',
  'subscribe',
  'run',
  'create',
  'process',
]);

const TRIGGER_MODULES = /^@trigger\.dev\/sdk(?:\/v3)?$/;

export function taskRegistrations(
  call: TSESTree.CallExpression,
  context: AnyRuleContext,
  imports: ReadonlySet<string>,
): ConsumerHandler[] {
  const scope = context.sourceCode.getScope(call);
  const callee = unwrap(call.callee);
  const args = call.arguments;
  const method = callee.type === AST_NODE_TYPES.MemberExpression ? memberName(callee, scope) : undefined;
  const receiver = callee.type === AST_NODE_TYPES.MemberExpression ? unwrap(callee.object) : undefined;
  const make = (broker: Broker, node: TSESTree.Node | undefined, queue: string | undefined): ConsumerHandler[] => {
    const fn = node && resolveHandlerFunction(node, scope);
    return fn ? [{ fn, broker, queue, registration: call, messageParam: fn.params[0] }] : [];
  };
  const option = (node: TSESTree.Node | undefined, key: string): TSESTree.Node | undefined => {
    const options = node && resolveValue(node, scope);
    if (options?.type !== AST_NODE_TYPES.ObjectExpression) return undefined;
    const property = findProperty(options, (name) => name === key, scope);
    return property && property !== 'unknown' ? property.value : undefined;
  };
  const optionString = (node: TSESTree.Node | undefined, key: string): string | undefined => {
    const value = option(node, key);
    return value && staticString(value, scope);
  };

  // trigger.dev: task({ id, run }), schemaTask({ id, schema, run }), schedules.task({ id, cron, run })
  if (isTriggerTask(callee, scope)) return make('trigger.dev', option(args[0], 'run'), optionString(args[0], 'id'));

  // Inngest: inngest.createFunction(config, trigger, handler)
  if (method === 'createFunction' && args.length === 3 && (imports.has('inngest') || /inngest/i.test(text(receiver)))) {
    return make('inngest', args[2], optionString(args[1], 'event') ?? optionString(args[0], 'id'));
  }
  // pg-boss: boss.work(name, [options,] handler)
  if (method === 'work' && args.length >= 2 && (imports.has('pg-boss') || /boss/i.test(text(receiver)))) {
    return make('pg-boss', args.at(-1), args[0] && staticString(args[0], scope));
  }
  // agenda: agenda.define(name, [options,] handler)
  if (
    method === 'define' &&
    args.length >= 2 &&
    (imports.has('agenda') || imports.has('@hokify/agenda') || /agenda/i.test(text(receiver)))
  ) {
    return make('agenda', args.at(-1), args[0] && staticString(args[0], scope));
  }
  // bee-queue: queue.process([concurrency,] handler)
  if (method === 'process' && imports.has('bee-queue') && args.length >= 1 && args.length <= 2) {
    return make('bee-queue', args.at(-1), undefined);
  }
  // Azure Service Bus: receiver.subscribe({ processMessage, processError })
  if (method === 'subscribe' && args[0] && imports.has('@azure/service-bus')) {
    return make('azure-service-bus', option(args[0], 'processMessage'), undefined);
  }
  // graphile-worker: run({ taskList: { name: fn } })
  if (callee.type === AST_NODE_TYPES.Identifier && importSource(callee, scope)?.module === 'graphile-worker') {
    return taskList(option(args[0], 'taskList'), scope, call);
  }
  // Temporal: Worker.create({ activities: { a, b } })
  if (method === 'create' && receiver?.type === AST_NODE_TYPES.Identifier) {
    const source = importSource(receiver, scope);
    if (source?.module === '@temporalio/worker' && source.imported === 'Worker') {
      return activityObject(option(args[0], 'activities'), scope, call);
    }
  }
  return [];
}

function text(node: TSESTree.Node | undefined): string {
  return (node && memberPath(node)?.join('.')) ?? '';
}

function isTriggerTask(callee: TSESTree.Node, scope: Scope): boolean {
  if (callee.type === AST_NODE_TYPES.Identifier) {
    const source = importSource(callee, scope);
    return source !== undefined && TRIGGER_MODULES.test(source.module) && /^(?:task|schemaTask)$/.test(source.imported);
  }
  if (callee.type === AST_NODE_TYPES.MemberExpression && memberName(callee) === 'task') {
    const object = unwrap(callee.object);
    if (object.type !== AST_NODE_TYPES.Identifier) return false;
    const source = importSource(object, scope);
    return source !== undefined && TRIGGER_MODULES.test(source.module);
  }
  return false;
}

/** The functions of an object literal of tasks: `{ sendEmail, 'resize-image': resize }`. */
function objectFunctions(
  node: TSESTree.Node | undefined,
  scope: Scope,
  call: TSESTree.Node,
  broker: Broker,
): ConsumerHandler[] {
  const value = node && resolveValue(node, scope);
  if (value?.type !== AST_NODE_TYPES.ObjectExpression) return [];
  return value.properties.flatMap((property) => {
    if (property.type !== AST_NODE_TYPES.Property) return [];
    const fn = resolveHandlerFunction(property.value, scope);
    const key = property.key;
    const queue =
      key.type === AST_NODE_TYPES.Identifier
        ? key.name
        : key.type === AST_NODE_TYPES.Literal
          ? String(key.value)
          : undefined;
    return fn ? [{ fn, broker, queue, registration: call, messageParam: fn.params[0] }] : [];
  });
}

function taskList(node: TSESTree.Node | undefined, scope: Scope, call: TSESTree.Node): ConsumerHandler[] {
  return objectFunctions(node, scope, call, 'graphile-worker');
}

function activityObject(node: TSESTree.Node | undefined, scope: Scope, call: TSESTree.Node): ConsumerHandler[] {
  return objectFunctions(node, scope, call, 'temporal');
}

/** A variable annotated as graphile-worker's `TaskList`: `const taskList: TaskList = { … }`. */
export function annotatedTaskList(declarator: TSESTree.VariableDeclarator, context: AnyRuleContext): ConsumerHandler[] {
  const type =
    declarator.id.type === AST_NODE_TYPES.Identifier ? declarator.id.typeAnnotation?.typeAnnotation : undefined;
  if (type?.type !== AST_NODE_TYPES.TSTypeReference || type.typeName.type !== AST_NODE_TYPES.Identifier) return [];
  const scope = context.sourceCode.getScope(declarator);
  const source = importSource(type.typeName, scope);
  if (source?.module !== 'graphile-worker' || source.imported !== 'TaskList' || !declarator.init) return [];
  return taskList(declarator.init, scope, declarator);
}
