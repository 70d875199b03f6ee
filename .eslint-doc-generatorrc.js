/** @type {import('eslint-doc-generator').GenerateOptions} */
export default {
  configEmoji: [
    ['recommended', '✅'],
    ['strict', '🔒'],
  ],
  ignoreConfig: ['all'],
  ruleDocTitleFormat: 'name',
  // Every rule doc has these sections; test/docs.test.ts runs the examples under them.
  ruleDocSectionInclude: ['Examples', 'When not to use it'],
  ruleListColumns: [
    'name',
    'description',
    'configsError',
    'fixable',
    'hasSuggestions',
    'options',
    'requiresTypeChecking',
  ],
  urlConfigs: 'https://github.com/eslint-plugin-idempotency/eslint-plugin-idempotency#configure',
  urlRuleDoc: (name) => `docs/rules/${name}.md`,
};
