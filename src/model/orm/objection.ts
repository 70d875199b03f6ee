import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';

import { chainLinks } from './transactions.js';

/**
 * Objection.js: a model's query builder (`Model.query([trx])`, an instance's `$query([trx])`, a
 * relation's `$relatedQuery(name)` or `Model.relatedQuery(name)`) ended by one of its mutate methods
 * (https://vincit.github.io/objection.js/api/query/mutate-methods.html). The builder's methods say
 * it whatever the model is called or wherever it comes from (an injected `typeof Plan`, a tenant
 * proxy `this.planModel()`), so no import is needed: `$query` and `$relatedQuery` are Objection's
 * own, and `query()` is taken for its builder only when it is handed a transaction or nothing.
 */
const MUTATE_METHODS =
  /^(?:insert|insertAndFetch|insertGraph|insertGraphAndFetch|patch|patchAndFetch|patchAndFetchById|update|updateAndFetch|updateAndFetchById|upsertGraph|upsertGraphAndFetch|delete|deleteById|relate|unrelate|increment|decrement)$/;

/** True for a chain that changes rows through an Objection model's query builder. */
export function isObjectionWrite(call: TSESTree.CallExpression): boolean {
  const links = chainLinks(call);
  const method = links.at(-2)?.name;
  if (method === undefined || !MUTATE_METHODS.test(method)) return false;
  return links.some((link, index) => {
    if (link.name === '$query' || link.name === '$relatedQuery' || link.name === 'relatedQuery') return true;
    if (link.name !== 'query') return false;
    // `Model.query()` or `Model.query(trx)`: not `pool.query(sql)`, which sends text.
    const builder = links[index + 1]?.node;
    return builder?.type === AST_NODE_TYPES.CallExpression && builder.arguments.length <= 1 && !sendsText(builder);
  });
}

/** `query('UPDATE …')`, `query(sql)`: a statement, not a transaction handed to a builder. */
function sendsText(call: TSESTree.CallExpression): boolean {
  const [first] = call.arguments;
  return (
    first !== undefined &&
    (first.type === AST_NODE_TYPES.Literal ||
      first.type === AST_NODE_TYPES.TemplateLiteral ||
      first.type === AST_NODE_TYPES.TaggedTemplateExpression ||
      (first.type === AST_NODE_TYPES.Identifier && /sql|query|statement|text/i.test(first.name)))
  );
}
