import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';
import { describe, expect, it } from 'vitest';

import { insertedFieldValue } from '../../src/model/keys/inserted-row.js';
import { isMintedEveryTime } from '../../src/model/keys/fresh-keys.js';
import { type AnyRuleContext } from '../../src/model/ast/context.js';
import { lintSnippet } from '../rule-tester.js';

/** The answer of `probe` for the argument of each `probe(...)` call in `code`. */
function probeAll<T>(code: string, probe: (node: TSESTree.Node, context: AnyRuleContext) => T): T[] {
  const found: T[] = [];
  lintSnippet(code, (context) => ({
    'CallExpression[callee.name="probe"]'(node: TSESTree.CallExpression) {
      found.push(probe(node.arguments[0]!, context));
    },
  }));
  return found;
}

const written = (node: TSESTree.Node, context: AnyRuleContext): string | null => {
  if (node.type !== AST_NODE_TYPES.MemberExpression) return null;
  const value = insertedFieldValue(node, context);
  return value ? context.sourceCode.getText(value) : null;
};

describe('insertedFieldValue', () => {
  it('reads a field back from a row inserted in the same function', () => {
    expect(
      probeAll(
        `async function f(supabase, db, prisma, knex, amount) {
  const receipt_id = crypto.randomUUID();
  const { data: intentRow } = await supabase.from('tip_intents').insert({ receipt_id, amount }).select().single();
  probe(intentRow.receipt_id);
  probe(intentRow.amount);
  const order = await prisma.$transaction(async (tx) => { await tx.show.update({ data: {} }); return tx.order.create({ data: { code: nanoid() } }); });
  probe(order.code);
  const [row] = await db.insert(payments).values({ ref: 'r-' + amount }).returning();
  probe(row.ref);
  const made = await prisma.user.create({ data: { email: 'a' } });
  probe(made.email);
}`,
        written,
      ),
    ).toEqual(['receipt_id', 'amount', 'nanoid()', "'r-' + amount", "'a'"]);
  });

  it('knows nothing of fields it did not write, rows read or updated, and rows from elsewhere', () => {
    expect(
      probeAll(
        `const seeded = await db.insert(t).values({ id: 1 });
async function f(supabase, prisma, given) {
  const { data: row } = await supabase.from('t').insert({ a: 1 }).select().single();
  probe(row.b);
  const { data: found } = await supabase.from('t').select().eq('id', 1).single();
  probe(found.a);
  const updated = await prisma.order.update({ where: { id: 1 }, data: { code: 'x' } });
  probe(updated.code);
  probe(given.code);
  probe(seeded.id);
  let later = await prisma.order.create({ data: { code: 'x' } });
  later = other;
  probe(later.code);
}`,
        written,
      ),
    ).toEqual([null, null, null, null, null, null]);
  });
});

describe('isMintedEveryTime', () => {
  it('follows consts, templates, both branches and rows read back to the mint', () => {
    expect(
      probeAll(
        `async function f(supabase, id, given) {
  const receipt_id = crypto.randomUUID();
  const { data: row } = await supabase.from('t').insert({ receipt_id, id }).select().single();
  const key = \`tip-\${row.receipt_id}\`;
  probe(key);
  probe(\`order-\${row.id}\`);
  probe(given ?? key);
  probe(given ? key : receipt_id);
  probe('k-' + Date.now());
}`,
        isMintedEveryTime,
      ),
    ).toEqual([true, false, false, true, true]);
  });
});
