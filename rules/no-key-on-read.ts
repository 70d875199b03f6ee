import { ASTUtils, AST_NODE_TYPES, type TSESLint, type TSESTree } from '@typescript-eslint/utils';

import { contains } from '../src/model/ast/nodes.js';
import { isIdempotencyHeaderName, keySinksAt, mayHoldIdempotencyKey } from '../src/model/keys/sinks.js';
import { getOutgoingRequest, isReadMethod, type HeaderEntry } from '../src/model/http/request.js';
import { readsSendingHeldHeaders } from '../src/model/http/held-headers.js';
import { isKeyOnEveryRequest } from '../src/model/keys/interceptors.js';
import { clientDefaultsHoldingKey } from '../src/model/keys/client-defaults.js';
import { keysEveryBuiltRequest, keysEveryMethodOf } from '../src/model/keys/request-builders.js';
import {
  keyHeadersOfHandedRead,
  keysHandedRequest,
  keyWrittenIntoHandedRequest,
} from '../src/model/keys/handed-requests.js';
import { keyHeaderOnEveryRequest, servesReads } from '../src/model/keys/shared-requests.js';
import { createRule } from '../src/util/create-rule.js';

export type Options = [];
export type MessageIds =
  'keyOnRead' | 'keyInSharedHeaders' | 'keyInClientDefaults' | 'keyOnEveryMethod' | 'keyOnEveryRequest';

export default createRule<Options, MessageIds>({
  name: 'no-key-on-read',
  meta: {
    type: 'problem',
    docs: {
      description: 'Disallow idempotency keys on read-only HTTP requests',
      recommended: 'recommended',
      roles: ['server', 'script', 'browser'],
    },
    fixable: 'code',
    messages: {
      keyInClientDefaults:
        'This writes `{{name}}` into the defaults of `{{client}}`, which every later request of that client carries, reads included, until it is removed, so GETs send a stale key the API stores for nothing and may answer with a cached response.',
      keyInSharedHeaders:
        'This writes `{{name}}` into `{{holder}}`, which the `{{method}}` request on line {{line}} also sends, so every later read carries a stale key the API stores for nothing and may answer with a cached response.',
      keyOnEveryMethod:
        'This adds `{{name}}` to every request built or handed in here whatever its method, so list and get requests carry a key the API stores for nothing and may answer with a cached response.',
      keyOnEveryRequest:
        'This interceptor writes `{{name}}` on every request the instance sends, reads included, so every GET carries a key the API stores for nothing and may answer with a cached response.',
      keyOnRead:
        'The `{{name}}` header on a `{{method}}` request makes the API store a key for a read, buys no protection against duplicates, and may serve a stale cached response.',
    },
    schema: [],
  },
  create(context) {
    // Nothing in this file can spell a key: nothing for this rule to start from.
    if (!mayHoldIdempotencyKey(context)) return {};
    const sourceCode = context.sourceCode;
    /** A key written into headers the instance keeps (`this.headers.set(...)`) leaks into its reads. */
    function checkSharedWrite(node: TSESTree.CallExpression | TSESTree.AssignmentExpression): void {
      for (const sink of keySinksAt(node, context)) {
        if (sink.kind !== 'header') continue;
        if (isKeyOnEveryRequest(sink, context)) {
          context.report({ node, messageId: 'keyOnEveryRequest', data: { name: sink.name } });
          continue;
        }
        const client = clientDefaultsHoldingKey(sink, context);
        if (client) {
          context.report({
            node,
            messageId: 'keyInClientDefaults',
            data: { name: sink.name, client: sourceCode.getText(client) },
          });
          continue;
        }
        if (keysHandedRequest(sink, context)) {
          context.report({ node, messageId: 'keyOnEveryMethod', data: { name: sink.name } });
          continue;
        }
        const holder = node.type === AST_NODE_TYPES.CallExpression ? node.callee : node.left;
        if (holder.type !== AST_NODE_TYPES.MemberExpression) continue;
        const [read] = readsSendingHeldHeaders(holder.object, sink.name, context);
        if (!read) {
          if (keysEveryBuiltRequest(node, holder.object, sink.value, context))
            context.report({ node, messageId: 'keyOnEveryMethod', data: { name: sink.name } });
          continue;
        }
        context.report({
          node,
          messageId: 'keyInSharedHeaders',
          data: {
            name: sink.name,
            holder: sourceCode.getText(holder.object),
            method: read.method,
            line: read.node.loc.start.line,
          },
        });
      }
    }

    return {
      AssignmentExpression(node) {
        // `req.headers = { ...req.headers, ...keyHeaders() }` in a client's request hook.
        const hooked = keyHeaderOnEveryRequest(node, context);
        if (hooked !== undefined) context.report({ node, messageId: 'keyOnEveryRequest', data: { name: hooked } });
        checkSharedWrite(node);
      },
      CallExpression(call) {
        checkSharedWrite(call);
        // A header-setting helper that fills a fresh key into every request a hook is handed.
        const helped = keyWrittenIntoHandedRequest(call, context);
        if (helped !== undefined) context.report({ node: call, messageId: 'keyOnEveryMethod', data: { name: helped } });
        // Read options handed to a local send helper.
        for (const handed of keyHeadersOfHandedRead(call, context))
          context.report({
            node: handed.property,
            messageId: 'keyOnRead',
            data: { name: handed.name, method: handed.method },
          });
        const request = getOutgoingRequest(call, context);
        if (!request) return;
        // A wrapper whose caller picks the method and that mints a key for every request.
        const everyMethod =
          request.method === undefined
            ? request.headers.entries.filter(
                (entry) => isIdempotencyHeaderName(entry.name) && keysEveryMethodOf(request, entry, context),
              )
            : [];
        for (const entry of everyMethod)
          context.report({ node: entry.node, messageId: 'keyOnEveryMethod', data: { name: entry.name } });
        // A request whose method its caller sets, in a function installed as a `get`, serves reads.
        if (!(isReadMethod(request.method) || (request.method === undefined && servesReads(call, context)))) return;

        for (const entry of request.headers.entries) {
          if (!isIdempotencyHeaderName(entry.name) || everyMethod.includes(entry)) continue;
          // A header written in this call's own literal is removed here; one shared with other
          // requests (a variable, an instance default) is reported at the call and left alone;
          // another module's headers brought in before the call, where they are brought in.
          const own = contains(call, entry.node);
          context.report({
            node: own !== Boolean(entry.imported) ? entry.node : call.callee,
            messageId: 'keyOnRead',
            data: { name: entry.name, method: request.method ?? 'GET' },
            fix: own && !entry.imported ? removeHeaderFix(entry, sourceCode) : null,
          });
        }
      },
    };
  },
});

/** Removes a header property with its comma; an object left empty stays as `{}`. */
function removeHeaderFix(
  entry: HeaderEntry,
  sourceCode: Readonly<TSESLint.SourceCode>,
): TSESLint.ReportFixFunction | null {
  const property = entry.node;
  const object = property.parent;
  if (property.type !== AST_NODE_TYPES.Property || object?.type !== AST_NODE_TYPES.ObjectExpression) return null;
  const properties = object.properties;
  const index = properties.findIndex((element) => element === property);
  if (properties.length === 1) return (fixer) => fixer.replaceText(object, '{}');

  const after = sourceCode.getTokenAfter(property);
  const trailingComma = after && ASTUtils.isCommaToken(after) ? after : undefined;
  if (index < properties.length - 1 && trailingComma) {
    // Up to whatever follows the comma (the next property or a comment), keeping its place.
    const next = sourceCode.getTokenAfter(trailingComma, { includeComments: true });
    if (!next) return null;
    return (fixer) => fixer.removeRange([property.range[0], next.range[0]]);
  }
  const before = sourceCode.getTokenBefore(property, { includeComments: true });
  if (!before) return null;
  if (!trailingComma && ASTUtils.isCommaToken(before))
    return (fixer) => fixer.removeRange([before.range[0], property.range[1]]);
  return (fixer) => fixer.removeRange([before.range[1], (trailingComma ?? property).range[1]]);
}
