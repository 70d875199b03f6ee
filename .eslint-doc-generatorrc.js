/** @type {import('eslint-doc-generator').GenerateOptions} */
export default {
  configEmoji: [
    ['recommended', '✅'],
    ['strict', '🔒'],
  ],
  ignoreConfig: ['all'],
  ruleDocTitleFormat: 'name',
  ruleListColumns: ['name', 'description', 'configsError', 'fixable', 'hasSuggestions', 'requiresTypeChecking'],
  urlRuleDoc: (name) => `docs/rules/${name}.md`,
};
