import type { Rule } from 'eslint';
import type { TSESTree } from '@typescript-eslint/utils';

import type { AnyRuleContext } from '../model/ast/context.js';

import { findConfigIssues, type ConfigCheck } from '../model/config-checks.js';

/**
 * The whole-program config checks as ESLint rules, so `idempotency-check` runs them through the
 * same Linter as the plugin's rules and `eslint-disable` comments turn them off the same way.
 * They report as `idempotency/<check>`.
 */

const MESSAGES: Record<ConfigCheck, string> = {
  'sqs-visibility-timeout':
    "The queue's visibility timeout ({{shorter}} s) is shorter than the timeout of the Lambda that consumes it ({{longer}} s), so SQS delivers the message again while the first invocation still runs.",
  'bullmq-lock-duration':
    "The worker's `lockDuration` ({{shorter}} ms) is shorter than a timeout its processor awaits ({{longer}} ms), so BullMQ declares the job stalled and runs it again on another worker.",
};

const DESCRIPTIONS: Record<ConfigCheck, string> = {
  'sqs-visibility-timeout': 'Disallow SQS visibility timeouts shorter than the timeout of the consuming Lambda',
  'bullmq-lock-duration': 'Disallow BullMQ lock durations shorter than a timeout the processor awaits',
};

/**
 * Both checks need an import from one of these modules (`isConstruct` in the model), so a file
 * without the text is skipped without a walk; the issues of one file are computed once for both rules.
 */
const MODULE_TEXT = /bullmq|aws-lambda-event-sources/;
const issuesBySource = new WeakMap<object, ReturnType<typeof findConfigIssues>>();

function issuesOf(program: TSESTree.Program, context: Rule.RuleContext): ReturnType<typeof findConfigIssues> {
  let issues = issuesBySource.get(context.sourceCode);
  if (!issues) {
    issues = MODULE_TEXT.test(context.sourceCode.text)
      ? findConfigIssues(program, context as unknown as AnyRuleContext)
      : [];
    issuesBySource.set(context.sourceCode, issues);
  }
  return issues;
}

function configRule(check: ConfigCheck): Rule.RuleModule {
  return {
    meta: {
      type: 'problem',
      docs: { description: DESCRIPTIONS[check] },
      messages: { tooShort: MESSAGES[check] },
      schema: [],
    },
    create(context) {
      return {
        'Program:exit'(program) {
          for (const issue of issuesOf(program as unknown as TSESTree.Program, context)) {
            if (issue.check !== check) continue;
            context.report({
              node: issue.node as unknown as Rule.Node,
              messageId: 'tooShort',
              data: { shorter: String(issue.shorter), longer: String(issue.longer) },
            });
          }
        },
      };
    },
  };
}

/** The config-check rules by name, reported under the plugin's namespace. */
export const configRules: Record<ConfigCheck, Rule.RuleModule> = {
  'sqs-visibility-timeout': configRule('sqs-visibility-timeout'),
  'bullmq-lock-duration': configRule('bullmq-lock-duration'),
};
