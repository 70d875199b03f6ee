import type { TSESLint } from '@typescript-eslint/utils';

import { rules } from '../rules/index.js';
import { buildConfigs, type ConfigName } from './configs.js';

import { packageInfo } from './util/package-info.js';

const { name, version } = packageInfo;

const plugin = {
  meta: { name, version, namespace: 'idempotency' },
  rules,
  configs: {} as Record<ConfigName, TSESLint.FlatConfig.Config>,
};
plugin.configs = buildConfigs(plugin as unknown as TSESLint.FlatConfig.Plugin, rules);

export { rules };
export default plugin;
