import type { TSESLint } from '@typescript-eslint/utils';

import { rules } from '../rules/index.js';
import { buildConfigs, NAMESPACE, type ConfigName } from './configs.js';

import { packageInfo } from './util/package-info.js';

const { name, version } = packageInfo;

const plugin = {
  meta: { name, version, namespace: NAMESPACE },
  rules,
  configs: {} as Record<ConfigName, TSESLint.FlatConfig.Config>,
};
plugin.configs = buildConfigs(plugin, rules);

// The default export only: Node's require(esm) hands a module with named exports to CommonJS
// callers (eslint-doc-generator among them) as its namespace, where `configs` is not found.
export default plugin;
