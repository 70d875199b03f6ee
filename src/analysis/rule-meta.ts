import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

import { NAMESPACE } from '../configs.js';
import plugin from '../index.js';
import type { RuleInfo } from '../report/model.js';
import { REPO_DOCS_URL } from '../util/create-rule.js';
import { packageInfo } from '../util/package-info.js';

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
      const help = helpOf(name);
      if (help !== undefined) info.help = help;
      return info;
    })
    .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

const HEADER_END = '<!-- end auto-generated rule header -->';

/**
 * A rule's help for SARIF viewers and code scanning: its doc (shipped in the package's docs/)
 * from the end of the generated header to the examples, which say what it reports and why.
 */
function helpOf(name: string): string | undefined {
  const file = join(packageInfo.root, 'docs', 'rules', `${name}.md`);
  if (!existsSync(file)) return undefined;
  const text = readFileSync(file, 'utf8');
  const start = text.indexOf(HEADER_END);
  if (start === -1) return undefined;
  const body = text.slice(start + HEADER_END.length);
  const end = body.search(/^## /m);
  const help = (end === -1 ? body : body.slice(0, end)).trim();
  return help === '' ? undefined : help;
}
