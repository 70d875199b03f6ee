import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';

import { type AnyRuleContext } from '../ast/context.js';
import { isWriteStatement, queryText, takesTransactionLock } from '../sql/statements.js';
import { chainNames } from './transactions.js';

// Whether a query chain changes rows, by its members' names and the text it sends: what a query
// that goes around a transaction does, whatever the library.

/** Chain members that change rows. */
const WRITE_NAMES =
  /^(?:insert\w*|update\w*|upsert\w*|delete\w*|del|create\w*|save|remove|softDelete|softRemove|restore|increment|decrement|destroy|bulkCreate|bulkWrite|truncate|merge|onConflict\w*|ignore|\$executeRaw\w*|none|persist\w*|flush|nativeInsert|nativeUpdate|nativeDelete|replaceInto)$/;
/** Chain members that send text that may be anything. */
const RAW_NAMES = new Set([
  'raw',
  'execute',
  'query',
  'result',
  'multi',
  'any',
  'one',
  'oneOrNone',
  'many',
  'manyOrNone',
  '$queryRaw',
  '$queryRawUnsafe',
  'run',
  'all',
  'get',
  'values',
  // Kysely: `db.executeQuery(compiledQuery)` runs whatever the compiled query says.
  'executeQuery',
]);

/** True when a chain changes rows (or sends text that may): a write, not a read. */
export function isWriteChain(
  links: readonly { node: TSESTree.Node; name: string | undefined }[],
  context: AnyRuleContext,
): boolean {
  const names = chainNames(links);
  if (names.some((name) => WRITE_NAMES.test(name))) return true;
  for (let index = 0; index < links.length - 1; index++) {
    const name = links[index]?.name;
    const call = links[index + 1]?.node;
    if (name === undefined || !RAW_NAMES.has(name) || call?.type !== AST_NODE_TYPES.CallExpression) continue;
    const first = call.arguments[0];
    if (!first) continue;
    const text = first.type === AST_NODE_TYPES.SpreadElement ? undefined : queryText(first, context);
    // A lock held until the transaction ends is taken outside it just as a write is.
    if (text === undefined || isWriteStatement(text) || takesTransactionLock(text)) return true;
  }
  return false;
}
