import { type TSESTree } from '@typescript-eslint/utils';

import { type AnyRuleContext } from './ast/context.js';
import { getOrmClaim } from './orm/claims.js';
import { getClaim, type Claim } from './sql/claims.js';

/**
 * The idempotency claim `node` makes, whatever writes it: SQL text through a driver
 * (`pool.query('INSERT ... ON CONFLICT DO NOTHING')`) or an ORM or query builder
 * (`createMany({ skipDuplicates: true })`, `.onConflictDoNothing()`, `findOrCreate`).
 */
export function findClaim(
  node: TSESTree.CallExpression | TSESTree.TaggedTemplateExpression,
  context: AnyRuleContext,
): Claim | undefined {
  return getClaim(node, context) ?? getOrmClaim(node, context);
}
