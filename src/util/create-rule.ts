import { ESLintUtils } from '@typescript-eslint/utils';

import type { JSONSchema4, JSONSchema4ObjectSchema } from '@typescript-eslint/utils/json-schema';

import { isMinified } from '../model/minified.js';
import { mayMatter } from '../model/prefilter.js';
import type { AnyRuleContext } from '../model/ast/context.js';
import { FILE_ROLES, type FileRole, rolesOf, serverPartsOf } from '../model/roles.js';
import { unreachedPartsOf } from '../model/roles/unreached.js';
import { hasSummaries, settingsOf } from '../model/settings.js';

/** Docs fields every rule of this plugin declares; configs are derived from them. */
export interface IdempotencyPluginDocs {
  /** The lowest config that enables the rule: `recommended` ⊂ `strict` ⊂ `all`. Absent: only in `all`. */
  recommended?: 'recommended' | 'strict';
  /** True when the rule reports nothing useful without type information. */
  requiresTypeChecking?: boolean;
  /**
   * The file roles (`src/model/roles.ts`) the rule reports in by default; a file of another
   * role gets no listeners. Users change it per rule with the `roles` option.
   */
  roles: readonly FileRole[];
  /**
   * Options the `strict` and `all` configs set (a check still being proven on real code, off in
   * `recommended`). They may switch checks on, never name clients: the prefilter still applies.
   */
  strictOptions?: Readonly<Record<string, unknown>>;
}

/** The `roles` option every rule takes, added to its schema here so rule files stay unaware of it. */
const ROLES_OPTION: JSONSchema4 = {
  type: 'array',
  items: { type: 'string', enum: [...FILE_ROLES] },
  uniqueItems: true,
  description:
    "The file roles to report in (`test`, `browser`, `script`, `server`, `unreached`), replacing the rule's defaults.",
};

export const REPO_DOCS_URL =
  'https://github.com/eslint-plugin-idempotency/eslint-plugin-idempotency/blob/main/docs/rules';

const ruleCreator = ESLintUtils.RuleCreator<IdempotencyPluginDocs>((name) => `${REPO_DOCS_URL}/${name}.md`);

/**
 * typescript-eslint's `RuleCreator`, with the options merged once per distinct options instead
 * of once per file and rule: RuleCreator's `create` deep-clones the defaults (`applyDefault`, a
 * `structuredClone`) every time, about a fifteenth of what the rules cost on a large lint. The
 * merge is `applyDefault`'s own; the merged options are frozen, since every file shares them.
 */
export function createRule<Options extends readonly unknown[], MessageIds extends string>(
  rule: Readonly<ESLintUtils.RuleWithMetaAndName<Options, MessageIds, IdempotencyPluginDocs>>,
): ReturnType<typeof ruleCreator<Options, MessageIds>> {
  const created = ruleCreator(rule);
  const defaults: Readonly<Options> = rule.meta.defaultOptions ?? ([] as unknown as Options);
  const defaultRoles = rule.meta.docs.roles;
  const merged = new Map<string, Readonly<Options>>();
  const defaultsKey = JSON.stringify(defaults);
  const strictKey = rule.meta.docs.strictOptions ? JSON.stringify([rule.meta.docs.strictOptions]) : undefined;
  return {
    ...created,
    meta: withRolesOption(created.meta, defaultRoles),
    create(context) {
      // Minified output is checked in its source (model/minified.ts), whatever the options say.
      if (minifiedHere(context)) return {};
      const [own, roles] = splitRoles<Options>(context.options);
      const key = own.length === 0 ? '' : JSON.stringify(own);
      // Options can name clients or wrappers no word gives away; with the defaults, a file the
      // prefilter rules out cannot produce a finding, so the rule registers no listeners there.
      // The prefilter (one text scan) goes first: most files stop there, before their role is read.
      if ((key === '' || key === defaultsKey || key === strictKey) && !mayMatterHere(context)) return {};
      const reportsIn = roles ?? defaultRoles;
      // A browser module with server parts (a page's `getServerSideProps`): a server rule reports in those.
      let parts: readonly (readonly [number, number])[] | undefined;
      if (!rolesOf(context).some((role) => reportsIn.includes(role))) {
        parts = reportsIn.includes('server') ? serverPartsOf(context) : undefined;
        if (!parts) return {};
      }
      let options = merged.get(key);
      if (!options) {
        options = deepFreeze(ESLintUtils.applyDefault<Options, Options>(defaults, own));
        merged.set(key, options);
      }
      // Functions nothing runs (dead code, roles/unreached.ts): reported only where the roles name them.
      const unreached = reportsIn.includes('unreached') ? undefined : unreachedPartsOf(context);
      let reporting = parts ? reportingInside(context, parts) : context;
      if (unreached) reporting = reportingInside(reporting, unreached, false);
      return rule.create(reporting, options);
    },
  };
}

/**
 * The rule's meta with `roles` in its options object (a new object for a rule without options)
 * and the declared roles as its default, so ESLint validates the option and the docs list it.
 */
function withRolesOption<Meta extends { schema: unknown; defaultOptions?: readonly unknown[] }>(
  meta: Meta,
  roles: readonly FileRole[],
): Meta {
  const [options] = ((meta.schema as JSONSchema4[] | undefined) ?? []) as (JSONSchema4ObjectSchema | undefined)[];
  const [defaults] = (meta.defaultOptions ?? []) as (Record<string, unknown> | undefined)[];
  return {
    ...meta,
    schema: [
      {
        type: 'object',
        additionalProperties: false,
        ...options,
        properties: { ...options?.properties, roles: ROLES_OPTION },
      },
    ],
    defaultOptions: [{ ...defaults, roles: [...roles] }],
  };
}

const rolesCache = new WeakMap<readonly unknown[], [unknown[], readonly FileRole[] | undefined]>();

/** The rule's own options without `roles`, and the roles the user gave, if any. */
function splitRoles<Options extends readonly unknown[]>(
  options: readonly unknown[],
): [Options, readonly FileRole[] | undefined] {
  const [first, ...rest] = options;
  if (typeof first !== 'object' || first === null || !('roles' in first)) return [options as Options, undefined];
  let split = rolesCache.get(options);
  if (!split) {
    const { roles, ...own } = first as { roles: readonly FileRole[] };
    split = [Object.keys(own).length === 0 && rest.length === 0 ? [] : [own, ...rest], roles];
    rolesCache.set(options, split);
  }
  return split as unknown as [Options, readonly FileRole[] | undefined];
}

const minifiedCache = new WeakMap<object, boolean>();

/** Whether the file is minified JavaScript, read once per file. */
function minifiedHere(context: AnyRuleContext): boolean {
  const sourceCode = context.sourceCode;
  let answer = minifiedCache.get(sourceCode);
  if (answer === undefined) {
    answer = isMinified(sourceCode.text, context.filename);
    minifiedCache.set(sourceCode, answer);
  }
  return answer;
}

const matterCache = new WeakMap<object, boolean>();

/**
 * The prefilter (`src/model/prefilter.ts`, the one `idempotency-check` uses), read once per file:
 * false when the file's text holds none of the shapes any rule starts from. Type information and
 * the shared settings can make a file matter without those words (a `Pool` known by its type, a
 * handler registered in another module), so with either the answer is true.
 */
function mayMatterHere(context: AnyRuleContext): boolean {
  const lists: unknown[] = Object.values(settingsOf(context));
  // `roles` (an object of globs, not a list of imports) says nothing about what a file holds.
  if (hasSummaries(context) || lists.some((list) => Array.isArray(list) && list.length > 0)) return true;
  const sourceCode = context.sourceCode;
  let answer = matterCache.get(sourceCode);
  if (answer === undefined) {
    answer = sourceCode.parserServices?.program != null || mayMatter(sourceCode.text, context.filename);
    matterCache.set(sourceCode, answer);
  }
  return answer;
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) deepFreeze(inner);
  }
  return value;
}

/**
 * The rule's context, reporting only what starts inside one of `ranges` of the file (the rest
 * of the module runs where the rule does not report), or with `inside` false only what starts
 * outside them (they are code nothing runs).
 */
function reportingInside<Context extends AnyRuleContext>(
  context: Context,
  ranges: readonly (readonly [number, number])[],
  inside = true,
): Context {
  const sourceCode = context.sourceCode;
  const report = (descriptor: Parameters<Context['report']>[0]): void => {
    const start =
      'node' in descriptor
        ? descriptor.node.range[0]
        : 'loc' in descriptor
          ? sourceCode.getIndexFromLoc('start' in descriptor.loc ? descriptor.loc.start : descriptor.loc)
          : undefined;
    const within = start !== undefined && ranges.some(([from, to]) => from <= start && start < to);
    if (within === inside) context.report(descriptor);
  };
  return Object.create(context, { report: { value: report } }) as Context;
}
