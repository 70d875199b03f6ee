import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';
import type { AnyRuleContext, Scope } from '../ast/context.js';
import { calleeName, lastName } from '../ast/names.js';
import { unwrap } from '../ast/nodes.js';
import { origin } from '../ast/values.js';
import { importSource } from '../modules.js';
import type { DeliveryLibrary } from './library.js';

/**
 * Bull: `queue.process([name,] [concurrency,] processor)`; a job whose processor fails is retried
 * up to its `attempts`, and a stalled job is processed again
 * (https://github.com/OptimalBits/bull/blob/develop/REFERENCE.md#queueprocess).
 */
export const bull: DeliveryLibrary<'bull'> = {
  broker: 'bull',
  modules: ['bull'],
  registrations: [
    {
      call: { method: ['process'] },
      receiver: { test: isBullQueue },
      arguments: { min: 1, max: 3 },
      handler: { argument: 'last' },
      queue: [{ receiver: true }],
    },
  ],
};

/** True when `identifier` is bound to an import of the project's own module (`'../lib/queue'`). */
function isRelativeImport(identifier: TSESTree.Identifier, scope: Scope): boolean {
  const module = importSource(identifier, scope)?.module;
  return module !== undefined && module.startsWith('.');
}

/** A Bull queue: made by `new Queue(…)` of bull, by a project's queue accessor, or named so in a file that imports bull. */
function isBullQueue(
  receiver: TSESTree.Node,
  _call: TSESTree.CallExpression,
  context: AnyRuleContext,
  imports: ReadonlySet<string>,
): boolean {
  const scope = context.sourceCode.getScope(receiver);
  const created = origin(receiver, scope);
  if (created.type === AST_NODE_TYPES.NewExpression || created.type === AST_NODE_TYPES.CallExpression) {
    const callee = unwrap(created.callee);
    if (callee.type === AST_NODE_TYPES.Identifier) {
      const source = importSource(callee, scope);
      if (source?.module === 'bull') return true;
    }
    if (calleeName(created) === 'Queue' || calleeName(created) === 'Bull') return imports.has('bull');
    // someQueue().process(...): a project's accessor for a Bull queue; in a file that does not
    // import bull, a queue factory the project imports (`const scan = newQueue('scan')` with
    // `newQueue` in lib/queue.js returning `new Queue(...)`). Not `new InMemoryQueue()`: `new`
    // makes an instance of the project's own class, whatever it is named.
    if (created.type === AST_NODE_TYPES.NewExpression) return false;
    const accessor = calleeName(created);
    if (accessor === undefined || !/queue$/i.test(accessor)) return false;
    if (imports.has('bull')) return true;
    return callee.type === AST_NODE_TYPES.Identifier && isRelativeImport(callee, scope);
  }
  // A queue built elsewhere: trust the file's import and the receiver's name.
  const name = lastName(receiver, scope);
  return imports.has('bull') && name !== undefined && /queue$/i.test(name);
}
