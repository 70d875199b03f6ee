import type { TSESLint } from '@typescript-eslint/utils';

/**
 * The one switch between an autofix and a suggestion (typescript-eslint's getFixOrSuggest): a
 * change that provably keeps behaviour, or that the user opted into, is a fix; anything a
 * reviewer should look at is a suggestion.
 */
export function fixOrSuggest<MessageIds extends string>(
  useFix: boolean,
  suggestion: TSESLint.SuggestionReportDescriptor<MessageIds>,
): { fix: TSESLint.ReportFixFunction } | { suggest: TSESLint.SuggestionReportDescriptor<MessageIds>[] } {
  return useFix ? { fix: suggestion.fix } : { suggest: [suggestion] };
}
