import { rules } from '../../rules/index.js';

/** ESLint reports the plugin's rules under this namespace. */
export const RULE_NAMESPACE = 'idempotency/';

export interface RuleInfo {
  /** Full rule id: `idempotency/no-per-attempt-key`. */
  id: string;
  /** The rule's name without the namespace: `no-per-attempt-key`. */
  name: string;
  description?: string;
  /** The rule's documentation page. */
  url?: string;
}

const known: ReadonlyMap<string, RuleInfo> = new Map(
  Object.entries(rules).map(([name, rule]) => {
    const id = RULE_NAMESPACE + name;
    return [id, { id, name, description: rule.meta.docs?.description, url: rule.meta.docs?.url }];
  }),
);

/** Every rule of the plugin, sorted by id. */
export function pluginRules(): RuleInfo[] {
  return [...known.values()];
}

/** Metadata for a rule id; ids from outside the plugin get only their name. */
export function ruleInfo(ruleId: string): RuleInfo {
  return (
    known.get(ruleId) ?? {
      id: ruleId,
      name: ruleId.startsWith(RULE_NAMESPACE) ? ruleId.slice(RULE_NAMESPACE.length) : ruleId,
    }
  );
}
