import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';

/**
 * Code that runs once for an object, not once per request: a class's constructor and the
 * lifecycle hooks a framework calls once when it builds a provider (NestJS's `onModuleInit` and
 * `onApplicationBootstrap`). A key drawn there (`this.api.defaults.headers.common['Idempotency-Key']
 * = randomUUID()` in a gateway's constructor) is one per instance, sent by every request the
 * instance makes: whatever is wrong with it, it is not minted per attempt.
 */
const ONCE_PER_INSTANCE_HOOKS = new Set(['onModuleInit', 'onApplicationBootstrap']);

/** True when `fn` is a constructor or a once-per-instance lifecycle method of a class. */
export function isInstanceSetup(fn: TSESTree.FunctionLike): boolean {
  const method = fn.parent;
  if (method.type !== AST_NODE_TYPES.MethodDefinition || method.value !== fn) return false;
  if (method.kind === 'constructor') return true;
  return (
    method.kind === 'method' &&
    !method.computed &&
    method.key.type === AST_NODE_TYPES.Identifier &&
    ONCE_PER_INSTANCE_HOOKS.has(method.key.name)
  );
}
