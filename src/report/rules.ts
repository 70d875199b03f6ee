import type { Report, RuleInfo } from './model.js';

/**
 * Rule metadata as the report carries it: the caller builds it from the plugin's meta, so the
 * formatters know every rule without importing the plugin.
 */

/** Metadata for a rule id; an id the report does not describe gets its name only (after `namespace/`). */
export function ruleInfo(report: Pick<Report, 'rules'>, ruleId: string): RuleInfo {
  return (
    report.rules.find((rule) => rule.id === ruleId) ?? {
      id: ruleId,
      name: ruleId.includes('/') ? ruleId.slice(ruleId.indexOf('/') + 1) : ruleId,
    }
  );
}
