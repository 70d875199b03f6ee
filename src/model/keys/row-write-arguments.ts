import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';

import { type AnyRuleContext } from '../ast/context.js';
import { findProperty, resolveValue } from '../ast/values.js';
import { memberPath } from '../ast/names.js';

/**
 * A row write through the project's own data layer, known by the shape of its argument: Prisma's
 * write arguments (`{ where, data }`, `{ data }`, an upsert's `{ where, create, update }`), which a
 * repository or store wrapper takes and hands on (`runStore.updateWaitpoint({ where, data: { ... } })`,
 * `repo.createPayment({ data })`). A key written there is kept on a stored row, for later attempts
 * to read back, rather than sent to another system: a row moved aside when its key expired, or a
 * fresh row's own key.
 */

/** The fields of a Prisma write argument that hold the row's values. */
const ROW_FIELDS = new Set(['data', 'create', 'update']);

/** A method named for writing a row: `createOrder`, `updateWaitpoint`, `upsert_payment`, `insertRow`. */
const ROW_WRITE_METHOD = /^(?:create|update|upsert|insert)(?:[A-Z_]|$)/;

/** A receiver named for the data layer: `runStore`, `paymentRepo`, `ordersRepository`, `userDao`, `db`. */
const DATA_LAYER = /(?:store|repo|repository|dao|db|database)$/i;

/**
 * True when the value at `via` (property names from the argument down) is a row's field in a
 * write argument (under `data` / `create` / `update`): an argument that also says which row
 * (`where`), or one handed to a row-write method of the data layer (`runStore.createWaitpoint`).
 * An API client's method of the same name (`mercury.createTransaction({ data })`) sends it.
 */
export function isRowWriteArgument(
  callee: TSESTree.Node,
  argument: TSESTree.Node | undefined,
  via: readonly string[],
  context: AnyRuleContext,
): boolean {
  const [field] = via;
  if (field === undefined || via.length < 2 || !ROW_FIELDS.has(field)) return false;
  const path = memberPath(callee)?.filter((name) => name !== 'this');
  const method = path?.at(-1);
  const receiver = path?.at(-2);
  if (method !== undefined && receiver !== undefined && ROW_WRITE_METHOD.test(method) && DATA_LAYER.test(receiver))
    return true;
  if (!argument) return false;
  const scope = context.sourceCode.getScope(argument);
  const object = resolveValue(argument, scope);
  if (object.type !== AST_NODE_TYPES.ObjectExpression) return false;
  const where = findProperty(object, (name) => name === 'where', scope);
  return where !== undefined && where !== 'unknown';
}
