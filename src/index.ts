import type { Linter } from 'eslint';

import { rules } from '../rules/index.js';
import { buildConfigs, NAMESPACE, type ConfigName } from './configs.js';

import { packageInfo } from './util/package-info.js';

const { name, version } = packageInfo;

const plugin = {
  meta: { name, version, namespace: NAMESPACE },
  rules,
  configs: {} as Record<ConfigName, Linter.Config>,
};
plugin.configs = buildConfigs(plugin, rules);

// ESM callers import the default; CommonJS callers (`require('eslint-plugin-idempotency')`, as in
// an eslint.config.cjs, and eslint-doc-generator) get the plugin itself through Node's
// require(esm), which returns a module's 'module.exports' export instead of its namespace.
export default plugin;
export { plugin as 'module.exports' };
