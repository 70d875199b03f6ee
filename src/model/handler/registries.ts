import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';
import { unwrap } from '../ast/nodes.js';
import { findVariable } from '../ast/values.js';
import { memberPath } from '../ast/names.js';
import { type AnyRuleContext, type Scope } from '../ast/context.js';
import { thisFieldValues } from '../ast/class-fields.js';
import { enclosingFunction } from '../ast/nodes.js';

/**
 * Job registries: a project's own job system keeps its handlers in an object keyed by job type
 * (`const jobMap = { [Jobs.EXPORT]: exportCampaign, send_message: sendMessage }`) and a
 * dispatcher, which a queue poller or a broker's processor calls per job, looks the handler up
 * by the job's type (`await jobMap[job.job_type](job)`). Every function in the registry then runs
 * once per delivery of its job type, and so does the dispatcher.
 */

/** Names a registry of job, task or message handlers goes by: `jobMap`, `taskHandlers`, `EVENT_PROCESSORS`. */
export const REGISTRY_NAME =
  /^\w*(?:job|task|queue|worker|consumer|message|event|command)s?_?(?:map|registry|handlers|processors|table)$/i;

export interface RegistryDispatch {
  /** The registry's object literal. */
  registry: TSESTree.ObjectExpression;
  name: string;
  /** The function whose body looks the handler up: the dispatcher. */
  dispatcher: TSESTree.FunctionLike | undefined;
}

/** `registry[key](...)` with a key computed per job, on an object literal named like a registry. */
export function registryDispatch(call: TSESTree.CallExpression, scope: Scope): RegistryDispatch | undefined {
  const callee = unwrap(call.callee);
  if (callee.type !== AST_NODE_TYPES.MemberExpression || !callee.computed) return undefined;
  if (callee.property.type === AST_NODE_TYPES.Literal) return undefined;
  const object = unwrap(callee.object);
  if (object.type !== AST_NODE_TYPES.Identifier || !REGISTRY_NAME.test(object.name)) return undefined;
  const registry = registryObject(object, scope);
  return registry && { registry, name: object.name, dispatcher: enclosingFunction(call) };
}

/** The object literal a registry name is bound to once, also through `Object.freeze({...})`. */
function registryObject(identifier: TSESTree.Identifier, scope: Scope): TSESTree.ObjectExpression | undefined {
  const table = tableObject(identifier, scope);
  return table?.kind === 'object' ? table.node : undefined;
}

/**
 * The table a name is bound to once, or a class field written once holds (given the context): an
 * object literal (also through `Object.freeze({...})`) or a `new Map([...])` (type-dispatch.ts reads both).
 */
export function tableObject(
  node: TSESTree.Node,
  scope: Scope,
  context?: AnyRuleContext,
): { kind: 'object'; node: TSESTree.ObjectExpression } | { kind: 'map'; node: TSESTree.NewExpression } | undefined {
  let value: TSESTree.Node | undefined;
  if (node.type === AST_NODE_TYPES.Identifier) {
    const variable = findVariable(scope, node);
    const def = variable?.defs.length === 1 ? variable.defs[0] : undefined;
    if (def?.node.type === AST_NODE_TYPES.VariableDeclarator) value = def.node.init ?? undefined;
  } else if (node.type === AST_NODE_TYPES.MemberExpression && context) {
    // `this.messagesMap`: a class field written once, with its table (class-fields.ts).
    const values = thisFieldValues(node, context);
    value = values?.length === 1 ? values[0] : undefined;
  }
  if (!value) return undefined;
  let init = unwrap(value);
  if (
    init.type === AST_NODE_TYPES.CallExpression &&
    memberPath(init.callee)?.join('.') === 'Object.freeze' &&
    init.arguments[0]
  )
    init = unwrap(init.arguments[0]);
  if (init.type === AST_NODE_TYPES.ObjectExpression) return { kind: 'object', node: init };
  if (
    init.type === AST_NODE_TYPES.NewExpression &&
    init.callee.type === AST_NODE_TYPES.Identifier &&
    init.callee.name === 'Map'
  )
    return { kind: 'map', node: init };
  return undefined;
}

/** The registry's entries: each handler node with the job type it is keyed by, when static. */
export function registryEntries(
  registry: TSESTree.ObjectExpression,
): { value: TSESTree.Node; key: string | undefined }[] {
  return registry.properties.flatMap((property) => {
    if (property.type !== AST_NODE_TYPES.Property) return [];
    const key = property.key;
    const name = property.computed
      ? memberPath(key)?.join('.')
      : key.type === AST_NODE_TYPES.Identifier
        ? key.name
        : key.type === AST_NODE_TYPES.Literal
          ? String(key.value)
          : undefined;
    return [{ value: property.value, key: name }];
  });
}
