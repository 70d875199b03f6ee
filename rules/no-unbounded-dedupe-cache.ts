import { AST_NODE_TYPES, type TSESLint, type TSESTree } from '@typescript-eslint/utils';

import { unwrap } from '../src/model/ast/nodes.js';
import { findVariable } from '../src/model/ast/values.js';
import { memberName, memberPath } from '../src/model/ast/names.js';
import { createRule } from '../src/util/create-rule.js';

export type Options = [];
export type MessageIds = 'unboundedSeenSet';

export default createRule<Options, MessageIds>({
  name: 'no-unbounded-dedupe-cache',
  meta: {
    type: 'problem',
    docs: {
      description: 'Disallow in-process seen-sets that grow without bound',
      recommended: 'recommended',
      roles: ['server'],
    },
    messages: {
      unboundedSeenSet:
        '`{{name}}` remembers every id it has seen and nothing ever removes one, so it grows for the life of the process; bound it (an LRU, a size cap, a TTL sweep) and keep the idempotency key, since a restart empties it anyway.',
    },
    schema: [],
  },
  create(context) {
    return {
      Program(program) {
        for (const declarator of moduleLevelCollections(program)) {
          const seenSet = unboundedSeenSet(declarator, context);
          if (seenSet) context.report({ node: declarator, messageId: 'unboundedSeenSet', data: { name: seenSet } });
        }
      },
    };
  },
});

type Context = Readonly<TSESLint.RuleContext<MessageIds, Options>>;

/** Names that say the collection remembers deliveries. */
const DEDUPE_NAME =
  /seen|processed|handled|dedup|deliver|received|consumed|completed|inflight|processing|duplicate|idempot/i;
/** Keys that look like ids: `message.id`, `eventId`, `update.update_id`, `msg.MessageId`. */
const ID_KEY = /(?:^|_|[a-z])(?:id|Id|ID)$|^id$|uuid|dedup|idempot/i;
/** Methods that take entries out or measure the size: anything bounding the collection. */
const BOUNDING = new Set(['delete', 'clear', 'size']);

/** `const x = new Map()` / `new Set()` declared at module level (exported or not). */
function moduleLevelCollections(program: TSESTree.Program): TSESTree.VariableDeclarator[] {
  const declarators: TSESTree.VariableDeclarator[] = [];
  for (const statement of program.body) {
    const declaration =
      statement.type === AST_NODE_TYPES.ExportNamedDeclaration
        ? undefined
        : statement.type === AST_NODE_TYPES.VariableDeclaration
          ? statement
          : undefined;
    for (const declarator of declaration?.declarations ?? []) {
      const init = declarator.init && unwrap(declarator.init);
      if (
        declarator.id.type === AST_NODE_TYPES.Identifier &&
        init?.type === AST_NODE_TYPES.NewExpression &&
        init.callee.type === AST_NODE_TYPES.Identifier &&
        (init.callee.name === 'Map' || init.callee.name === 'Set')
      ) {
        declarators.push(declarator);
      }
    }
  }
  return declarators;
}

/**
 * The name of a Map/Set used as a seen-set (`has(id)` then `add(id)` / `set(id, ...)`) that
 * nothing bounds: no `delete`, `clear` or `size` anywhere, never reassigned, never handed to
 * other code (which might bound it). Undefined otherwise.
 */
function unboundedSeenSet(declarator: TSESTree.VariableDeclarator, context: Context): string | undefined {
  const init = declarator.init && unwrap(declarator.init);
  if (init?.type !== AST_NODE_TYPES.NewExpression || init.callee.type !== AST_NODE_TYPES.Identifier) return undefined;
  // A shadowed Map/Set is someone else's class.
  if (findVariable(context.sourceCode.getScope(init), init.callee)?.defs.length) return undefined;
  const variable = context.sourceCode.getDeclaredVariables(declarator)[0];
  if (declarator.id.type !== AST_NODE_TYPES.Identifier || !variable) return undefined;
  const name = declarator.id.name;
  const checks = new Set<string>();
  const adds = new Set<string>();
  for (const reference of variable.references) {
    if (reference.init) continue;
    if (reference.isWrite()) return undefined; // reset by reassignment
    const identifier = reference.identifier;
    const member = identifier.parent;
    if (member.type !== AST_NODE_TYPES.MemberExpression || member.object !== identifier) return undefined; // escapes
    const method = memberName(member);
    if (method === undefined) return undefined;
    if (BOUNDING.has(method)) return undefined;
    const call = member.parent;
    if (call.type !== AST_NODE_TYPES.CallExpression || call.callee !== member) continue;
    const key = call.arguments[0];
    if (!key) continue;
    const text = context.sourceCode.getText(key).replace(/\s+/g, '');
    // has() is the seen-check; a Map whose values are read back (`get`) is a memo or a state
    // store keyed by id (drafts, sessions, one cache per type), unless its name says it dedupes.
    if (method === 'has') checks.add(text);
    if (method === 'get' && init.callee.name === 'Map' && !DEDUPE_NAME.test(name)) return undefined;
    if ((method === 'add' && init.callee.name === 'Set') || (method === 'set' && init.callee.name === 'Map')) {
      if (!isIdKey(key) && !DEDUPE_NAME.test(name)) continue;
      adds.add(text);
    }
  }
  return [...adds].some((key) => checks.has(key)) ? name : undefined;
}

function isIdKey(key: TSESTree.Node): boolean {
  const target = unwrap(key);
  if (target.type === AST_NODE_TYPES.TemplateLiteral) return target.expressions.some(isIdKey);
  const last = memberPath(target)?.at(-1);
  return last !== undefined && ID_KEY.test(last);
}
