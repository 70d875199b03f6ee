import type { Linter } from 'eslint';

import { NAMESPACE } from '../configs.js';
import plugin from '../index.js';
import { isInertTest, mayMatter } from '../model/prefilter.js';
import type { FileRuleConfig, RuleConfigLookup } from './lint.js';

/**
 * Which files pass 1 parses: the text prefilter's words (`mayMatter`), then the file's role. A
 * test file can only report through a rule whose roles include tests, so while no enabled rule's
 * roles (default or `roles` option) and no `settings.idempotency.roles` can make a file a
 * reporting one, an inert test (`isInertTest`) is set aside as the words' misses are.
 */

/** Rule name → the roles it reports in by default, from each rule's meta. */
const DEFAULT_ROLES = new Map<string, readonly string[]>(
  Object.entries(plugin.rules).map(([name, rule]) => [
    `${NAMESPACE}/${name}`,
    (rule.meta.docs as { roles?: readonly string[] } | undefined)?.roles ?? [],
  ]),
);

const PLUGIN_DEFAULT_TESTS = [...DEFAULT_ROLES.values()].some((roles) => roles.includes('test'));

function isOff(entry: Linter.RuleEntry): boolean {
  const level = Array.isArray(entry) ? entry[0] : entry;
  return level === 'off' || level === 0;
}

/** True when a rule of this config may report in a test file, or a setting may give a test file another role. */
function reportsInTests(config: FileRuleConfig): boolean {
  if ('roles' in config.settings) return true;
  return Object.entries(config.rules).some(([id, entry]) => {
    if (isOff(entry)) return false;
    const options: unknown = Array.isArray(entry) ? entry[1] : undefined;
    const roles =
      typeof options === 'object' && options !== null && 'roles' in options ? options.roles : DEFAULT_ROLES.get(id);
    return !Array.isArray(roles) || roles.includes('test');
  });
}

/** The pass-1 filter of a scan: true when a file is parsed and linted up front. */
export function createPrefilter(
  ruleConfig: RuleConfigLookup | undefined,
): (path: string, relative: string, text: string) => boolean {
  const answers = new WeakMap<FileRuleConfig, boolean>();
  const testsReport = (path: string): boolean => {
    const config = ruleConfig?.(path);
    if (config === undefined) return PLUGIN_DEFAULT_TESTS;
    let answer = answers.get(config);
    if (answer === undefined) {
      answer = reportsInTests(config);
      answers.set(config, answer);
    }
    return answer;
  };
  return (path, relative, text) => mayMatter(text, relative) && (!isInertTest(text, relative) || testsReport(path));
}
