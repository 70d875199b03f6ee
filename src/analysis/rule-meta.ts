import { NAMESPACE } from '../configs.js';
import plugin from '../index.js';
import type { RuleInfo } from '../report/model.js';
import { REPO_DOCS_URL } from '../util/create-rule.js';

/**
 * What the report needs to know of the plugin's rules, built from their meta by the caller, so
 * `src/report` imports nothing of the plugin.
 */

/** The repository home: the rule docs URL without its `/blob/<branch>/docs/rules` tail. */
export const INFORMATION_URI = REPO_DOCS_URL.replace(/\/blob\/.*$/u, '');

/** Every rule of the plugin, sorted by id, with its description and docs page. */
export function pluginRuleInfos(): RuleInfo[] {
  return Object.entries(plugin.rules)
    .map(([name, rule]): RuleInfo => {
      const info: RuleInfo = { id: `${NAMESPACE}/${name}`, name };
      const docs = rule.meta.docs;
      if (docs?.description !== undefined) info.description = docs.description;
      if (docs?.url !== undefined) info.url = docs.url;
      return info;
    })
    .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}
