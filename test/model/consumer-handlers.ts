import type { TSESTree } from '@typescript-eslint/utils';

import { findConsumerHandlers, type ConsumerHandler } from '../../src/model/handler/consumer-handler.js';
import { lintSnippet, type SnippetOptions } from '../rule-tester.js';

/** Runs `findConsumerHandlers` over `code` inside a throwaway rule. */
export function consumerHandlersIn(code: string, options: SnippetOptions = {}): ConsumerHandler[] {
  let found: ConsumerHandler[] = [];
  lintSnippet(
    code,
    (context) => ({
      Program(program: TSESTree.Program) {
        found = findConsumerHandlers(program, context);
      },
    }),
    options,
  );
  return found;
}
