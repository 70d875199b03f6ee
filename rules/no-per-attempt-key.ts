import { AST_NODE_TYPES, type TSESLint, type TSESTree } from '@typescript-eslint/utils';

import { keySinksAt, mayHoldIdempotencyKey, type KeySink } from '../src/model/keys/sinks.js';
import { messageIdentityAt } from '../src/model/handler/identity.js';
import { perAttemptKeyAt } from '../src/model/keys/carriers.js';
import { mintInHelper } from '../src/model/keys/minting.js';
import { listedKeyHelperMints, namedKeyHelperMints } from '../src/model/keys/key-helpers.js';
import { attemptScopeOf, attemptScopeWords } from '../src/model/attempts/attempt-scope.js';
import { createRule } from '../src/util/create-rule.js';
import { isDeveloperCode } from '../src/model/keys/developer-code.js';
import { DEFAULT_INTENT_PATTERN, intentPattern, isDeclaredUnique } from '../src/model/keys/intent.js';

export type Options = [{ intentionalComment?: string }];
export type MessageIds = 'perAttemptKey' | 'attemptNumberKey' | 'deriveFromMessage';

/** A helper's key is reported at the helper, whose callers are anywhere: no one scope re-runs it. */
const ANY_RERUN = { where: '', rerun: 'redelivery or retry' } as const;

export default createRule<Options, MessageIds>({
  name: 'no-per-attempt-key',
  meta: {
    type: 'problem',
    docs: {
      description: 'Disallow idempotency keys minted per attempt',
      recommended: 'recommended',
      roles: ['server', 'script', 'browser'],
    },
    hasSuggestions: true,
    messages: {
      perAttemptKey:
        '`{{name}}` is minted per attempt with `{{source}}`{{where}}, so every {{rerun}} presents a key the receiver has never seen and the write happens again.',
      attemptNumberKey:
        '`{{name}}` is built from the attempt number `{{source}}`{{where}}, so every {{rerun}} presents a key the receiver has never seen and the write happens again.',
      deriveFromMessage: 'Derive the key from `{{id}}`, which stays the same on every delivery of the message.',
    },
    schema: [
      {
        type: 'object',
        properties: {
          intentionalComment: {
            type: 'string',
            description:
              'A regular expression (case-insensitive) that a comment on the key or on its statement matches when the key is unique per request on purpose; an empty string turns this off.',
          },
        },
        additionalProperties: false,
      },
    ],
    defaultOptions: [{ intentionalComment: DEFAULT_INTENT_PATTERN }],
  },
  create(context, [{ intentionalComment }]) {
    // Nothing in this file can spell a key: nothing for this rule to start from.
    if (!mayHoldIdempotencyKey(context)) return {};
    const intent = intentPattern(intentionalComment ?? DEFAULT_INTENT_PATTERN);
    const reportedHelpers = new Set<TSESTree.Node>();
    const reported = new Set<TSESTree.Node>();
    function check(node: TSESTree.Property | TSESTree.AssignmentExpression | TSESTree.CallExpression): void {
      for (const sink of keySinksAt(node, context)) {
        const value = perAttemptKeyAt(sink, context);
        if (!value || isDeveloperCode(sink.node, context)) continue;
        // The code says the key is unique per request on purpose.
        if (isDeclaredUnique([sink.node, value.source], intent, context)) continue;
        // A helper that never returns the same key: one report, at the helper.
        const inHelper = mintInHelper(value, context);
        if (inHelper) {
          if (reportedHelpers.has(inHelper.helper)) continue;
          reportedHelpers.add(inHelper.helper);
          if (isDeclaredUnique([inHelper.helper, inHelper.mint.source], intent, context)) continue;
          context.report({
            node: inHelper.mint.source,
            messageId: 'perAttemptKey',
            data: {
              name: sink.name,
              source: inHelper.mint.description,
              where: ANY_RERUN.where,
              rerun: ANY_RERUN.rerun,
            },
          });
          continue;
        }
        // One mint sent in several places (a body field and an argument) is one fault.
        if (reported.has(value.source)) continue;
        reported.add(value.source);
        const at = sink.value;
        // The message names what runs the mint again: a retry around it, or the redelivery of its handler.
        const { where, rerun } = attemptScopeWords(attemptScopeOf(value.source, context));
        const id = messageIdentityAt(sink.node, context)?.join(':');
        context.report({
          node: at,
          messageId: value.kind === 'attempt' ? 'attemptNumberKey' : 'perAttemptKey',
          data: { name: sink.name, source: value.description, where, rerun },
          suggest:
            id === undefined
              ? []
              : [
                  {
                    messageId: 'deriveFromMessage',
                    data: { id },
                    fix: (fixer) => replaceKey(fixer, sink, `\`msg:\${${id}}\``),
                  },
                ],
        });
      }
    }
    return {
      // A key helper (one another module writes as a key, or one named for the key) whose output is never stable.
      Program(program) {
        for (const { helper, name, mint } of [
          ...listedKeyHelperMints(program, context),
          ...namedKeyHelperMints(program, context),
        ]) {
          if (reportedHelpers.has(helper)) continue;
          reportedHelpers.add(helper);
          // The helper's own comment says its key is unique per call on purpose.
          if (isDeclaredUnique([helper, mint.source], intent, context)) continue;
          context.report({
            node: mint.source,
            messageId: 'perAttemptKey',
            data: { name: `${name}()`, source: mint.description, where: ANY_RERUN.where, rerun: ANY_RERUN.rerun },
          });
        }
      },
      Property: check,
      AssignmentExpression: check,
      CallExpression: check,
    };
  },
});

/** Replaces the key's value; a shorthand `{ idempotencyKey }` becomes `idempotencyKey: <key>`. */
function replaceKey(fixer: TSESLint.RuleFixer, sink: KeySink, key: string): TSESLint.RuleFix {
  const { node } = sink;
  if (node.type === AST_NODE_TYPES.Property && node.shorthand) return fixer.insertTextAfter(node.key, `: ${key}`);
  return fixer.replaceText(sink.value, key);
}
