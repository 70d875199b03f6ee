import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

import { Linter, type Rule, type SourceCode } from 'eslint';
import * as tsParser from '@typescript-eslint/parser';
import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';

import { NAMESPACE } from '../configs.js';
import plugin from '../index.js';
import type { IdempotencySettings } from '../model/settings.js';
import { mergeSummaries, type Summaries } from '../model/summary.js';

/** The CLI checks the settings it is given before a file is read, with the rules' own check. */
export { settingsProblem } from '../model/settings.js';
import type { Finding } from '../report/model.js';
import { childNodes } from '../model/ast/nodes.js';

/**
 * Runs the plugin's own rules through ESLint's `Linter`: the one source of truth for what a
 * finding is. Inline `eslint-disable` directives are honoured exactly as ESLint honours them,
 * and the messages they turn off are kept as suppressed findings.
 */

const INTERNAL_NAMESPACE = 'idempotency-check';

/** The plugin's rules, under the plugin's namespace. */
const ALL_RULES = plugin.rules as unknown as Record<string, Rule.RuleModule>;

/** The plugin's own levels: a rule `recommended` enables reports errors, any other rule warnings. */
const RECOMMENDED = new Set(Object.keys(plugin.configs.recommended.rules ?? {}));

const RULE_LEVELS: Record<string, 'error' | 'warn'> = Object.fromEntries([
  ...Object.keys(plugin.rules).map((name): [string, 'error' | 'warn'] => {
    const id = `${NAMESPACE}/${name}`;
    return [id, RECOMMENDED.has(id) ? 'error' : 'warn'];
  }),
]);

/**
 * The rules and shared settings the project gives one file: from `idempotency.config.json`, the
 * `idempotency` key of package.json, or the project's ESLint config (`--eslint-config`).
 */
export interface FileRuleConfig {
  /** `idempotency/<rule>` → ESLint rule entry; a rule not listed is off. */
  rules: Linter.RulesRecord;
  /** The user's `settings.idempotency`, merged under the cross-file settings the analysis computes. */
  settings: Record<string, unknown>;
}

/** The project's rule config for a file by absolute path; undefined for the plugin's defaults. */
export type RuleConfigLookup = (path: string) => FileRuleConfig | undefined;

/** The user's settings with the computed ones added: lists and summaries are joined, anything else is the user's. */
function mergeSettings(
  user: Record<string, unknown>,
  computed: IdempotencySettings | undefined,
): Record<string, unknown> {
  const merged: Record<string, unknown> = { ...user };
  for (const [key, value] of Object.entries(computed ?? {})) {
    const own = merged[key];
    merged[key] =
      key === 'summaries'
        ? mergeSummaries(own as Summaries | undefined, value as Summaries)
        : Array.isArray(own) && Array.isArray(value)
          ? [...(own as unknown[]), ...(value as unknown[])]
          : value;
  }
  return merged;
}

/** What one pass over one file produced. */
export interface FileLintResult {
  messages: Linter.LintMessage[];
  suppressed: (Linter.LintMessage & { suppressions?: { kind: string; justification: string }[] })[];
  /** Set when the file did not parse: the parser's message. */
  fatal?: string;
  /** The parsed source, for locating findings; undefined when the file did not parse. */
  sourceCode?: SourceCode;
  /** The text after `--fix`, when it changed. */
  fixed?: string;
}

export interface RunOptions {
  settings?: IdempotencySettings;
  /** Extra internal rules (the facts pass), run alongside the plugin's rules. */
  internalRules?: Record<string, Rule.RuleModule>;
  /** Run the plugin's rules; false for a facts-only pass. */
  pluginRules?: boolean;
  fix?: boolean;
  /** typescript-eslint `parserOptions.programs` for typed mode. */
  programs?: unknown[];
}

type ConfigArray = Linter.Config[] & { normalizeSync(): unknown };
type ConfigArrayClass = new (configs: Linter.Config[], options: { basePath: string }) => ConfigArray;

/**
 * ESLint's `FlatConfigArray`, from where ESLint 9.22 through 10 keep it. `Linter#verify`
 * validates and normalises a plain config array on every call (rule options, schema, merges:
 * about a twentieth of a scan); an array that is already normalised (one with `getConfig`) it
 * uses as it is. The class is not a public export: when it is not there, the runner hands ESLint
 * plain arrays and is only slower.
 */
export function loadConfigArrayClass(): ConfigArrayClass | undefined {
  try {
    const require = createRequire(import.meta.url);
    const loaded = require(join(dirname(require.resolve('eslint')), 'config', 'flat-config-array.js')) as {
      FlatConfigArray?: unknown;
    };
    return typeof loaded.FlatConfigArray === 'function' ? (loaded.FlatConfigArray as ConfigArrayClass) : undefined;
  } catch {
    return undefined;
  }
}

/** One Linter for the whole scan; one normalised config per distinct set of run options. */
export class RuleRunner {
  private readonly linter: Linter;

  private readonly configs = new Map<string, Linter.Config[]>();
  private readonly ConfigArray = loadConfigArrayClass();
  private readonly ids = new WeakMap<object, number>();
  private nextId = 1;

  constructor(
    private readonly root: string,
    private readonly ruleConfig?: RuleConfigLookup,
  ) {
    this.linter = new Linter({ cwd: root, configType: 'flat' });
  }

  /** True when configs are normalised once and reused, not on every file. */
  get reusesConfigs(): boolean {
    return this.ConfigArray !== undefined;
  }

  private idOf(value: object | undefined): number {
    if (value === undefined) return 0;
    let id = this.ids.get(value);
    if (id === undefined) {
      id = this.nextId++;
      this.ids.set(value, id);
    }
    return id;
  }

  /** The config for these options, normalised once (settings are compared by value). */
  private configFor(options: RunOptions, project: FileRuleConfig | undefined): Linter.Config[] {
    const key = `${options.pluginRules !== false}|${this.idOf(options.internalRules)}|${this.idOf(options.programs)}|${this.idOf(project)}|${JSON.stringify(options.settings ?? {})}`;
    let config = this.configs.get(key);
    if (!config) {
      const plain = this.config(options, project);
      if (this.ConfigArray) {
        const normalised = new this.ConfigArray(plain, { basePath: this.root });
        normalised.normalizeSync();
        config = normalised;
      } else {
        config = plain;
      }
      this.configs.set(key, config);
    }
    return config;
  }

  private config(options: RunOptions, project: FileRuleConfig | undefined): Linter.Config[] {
    const plugins: Record<string, { rules: Record<string, Rule.RuleModule> }> = {};
    const enabled: Linter.RulesRecord = {};
    if (options.pluginRules !== false) {
      plugins[NAMESPACE] = { rules: ALL_RULES };
      Object.assign(enabled, project ? project.rules : RULE_LEVELS);
    }
    if (options.internalRules) {
      plugins[INTERNAL_NAMESPACE] = { rules: options.internalRules };
      for (const name of Object.keys(options.internalRules)) enabled[`${INTERNAL_NAMESPACE}/${name}`] = 'error';
    }
    // No lib globals in scope analysis: the rules tell a global from a binding by its missing
    // definition, which a lib variable shares, and a program's `lib: ["DOM"]` otherwise declares
    // some 1,500 variables in every file's global scope (a tenth of a typed scan).
    const parserOptions: Linter.ParserOptions = { ecmaFeatures: { jsx: true }, lib: [] };
    // The ESTree-to-TypeScript node maps serve type queries only; without a program they are work for nothing.
    if (options.programs) parserOptions.programs = options.programs;
    else parserOptions.preserveNodeMaps = false;
    return [
      {
        files: ['**/*.{js,mjs,cjs,jsx,ts,mts,cts,tsx}'],
        languageOptions: {
          parser: tsParser as unknown as Linter.Parser,
          sourceType: 'module',
          ecmaVersion: 'latest',
          parserOptions,
        },
        linterOptions: { reportUnusedDisableDirectives: 'off' },
        plugins,
        rules: enabled,
        settings: {
          [NAMESPACE]: project ? mergeSettings(project.settings, options.settings) : (options.settings ?? {}),
        },
      },
      { files: ['**/*.cjs'], languageOptions: { sourceType: 'commonjs' } },
      // In .ts files `<T>x` is a cast, not JSX.
      {
        files: ['**/*.ts', '**/*.mts', '**/*.cts'],
        languageOptions: { parserOptions: { ecmaFeatures: { jsx: false } } },
      },
    ];
  }

  /** Lints one file. `text` may be the SourceCode of an earlier pass, which skips re-parsing. */
  run(filename: string, text: string | SourceCode, options: RunOptions): FileLintResult {
    const config = this.configFor(options, this.ruleConfig?.(filename));
    let messages: Linter.LintMessage[];
    let fixed: string | undefined;
    if (options.fix && typeof text === 'string') {
      const report = this.linter.verifyAndFix(text, config, { filename, fix: true });
      messages = report.messages;
      if (report.fixed && report.output !== text) fixed = report.output;
    } else {
      messages = this.linter.verify(text, config, { filename });
    }
    const fatalMessage = messages.find((message) => message.fatal === true);
    if (fatalMessage) {
      return {
        messages: [],
        suppressed: [],
        fatal: `${fatalMessage.message} (${fatalMessage.line}:${fatalMessage.column})`,
      };
    }
    // ESLint's own file-level notice (no matching configuration, file ignored): no rule ran.
    const unlinted = messages.find((message) => message.ruleId === null && message.line === 0);
    if (unlinted) return { messages: [], suppressed: [], fatal: `not linted: ${unlinted.message}` };
    const suppressed = (
      this.linter as unknown as { getSuppressedMessages(): FileLintResult['suppressed'] }
    ).getSuppressedMessages();
    const result: FileLintResult = { messages, suppressed, sourceCode: this.linter.getSourceCode() };
    if (fixed !== undefined) result.fixed = fixed;
    return result;
  }
}

/** Turns one file's plugin messages into report findings (internal rules' messages are dropped). */
export function toFindings(result: FileLintResult, relativeFile: string, includeSuppressed: boolean): Finding[] {
  const findings: Finding[] = [];
  const namer = result.sourceCode ? functionNamer(result.sourceCode) : undefined;
  const lines = result.sourceCode?.lines;
  const convert = (message: FileLintResult['suppressed'][number]): Finding | undefined => {
    if (!message.ruleId?.startsWith(`${NAMESPACE}/`)) return undefined;
    const finding: Finding = {
      ruleId: message.ruleId,
      message: message.message,
      severity: message.severity === 2 ? 'error' : 'warning',
      file: relativeFile,
      line: message.line,
      column: message.column,
    };
    if (message.messageId !== undefined) finding.messageId = message.messageId;
    if (message.endLine !== undefined) finding.endLine = message.endLine;
    if (message.endColumn !== undefined) finding.endColumn = message.endColumn;
    const enclosing = namer?.(message.line, message.column);
    if (enclosing !== undefined) finding.enclosingFunction = enclosing;
    const snippet = lines?.[message.line - 1]?.trim();
    if (snippet) finding.snippet = snippet;
    if (message.fix) finding.fixable = true;
    const suggestions = message.suggestions?.map((suggestion) => suggestion.desc) ?? [];
    if (suggestions.length > 0) finding.suggestions = suggestions;
    if (message.suppressions) {
      const justification = message.suppressions
        .map((suppression) => suppression.justification)
        .find((text) => text !== '');
      finding.suppressed = justification === undefined ? {} : { justification };
    }
    return finding;
  };
  for (const message of result.messages) {
    const finding = convert(message);
    if (finding) findings.push(finding);
  }
  if (includeSuppressed) {
    for (const message of result.suppressed) {
      const finding = convert(message);
      if (finding) findings.push(finding);
    }
  }
  return findings;
}

interface NamedRange {
  start: number;
  end: number;
  name: string;
}

/**
 * Maps a 1-based position to the name of the innermost named function around it
 * (`function f`, `const f = () =>`, a method or an object property), for baseline identity.
 */
function functionNamer(sourceCode: SourceCode): (line: number, column: number) => string | undefined {
  let ranges: NamedRange[] | undefined;
  return (line, column) => {
    ranges ??= collectNamedFunctions(sourceCode);
    const offset = sourceCode.getIndexFromLoc({ line, column: column - 1 });
    let best: NamedRange | undefined;
    for (const range of ranges) {
      if (range.start <= offset && offset < range.end && (!best || range.start >= best.start)) best = range;
    }
    return best?.name;
  };
}

function collectNamedFunctions(sourceCode: SourceCode): NamedRange[] {
  const ranges: NamedRange[] = [];
  const keys = sourceCode.visitorKeys;
  const visit = (node: TSESTree.Node): void => {
    if (
      node.type === AST_NODE_TYPES.FunctionDeclaration ||
      node.type === AST_NODE_TYPES.FunctionExpression ||
      node.type === AST_NODE_TYPES.ArrowFunctionExpression
    ) {
      const name = functionName(node);
      if (name !== undefined) ranges.push({ start: node.range[0], end: node.range[1], name });
    }
    for (const child of childNodes(node, keys)) visit(child);
  };
  visit(sourceCode.ast as unknown as TSESTree.Program);
  return ranges;
}

function functionName(node: TSESTree.FunctionLike): string | undefined {
  if (node.id) return node.id.name;
  const parent = node.parent;
  if (parent.type === AST_NODE_TYPES.VariableDeclarator && parent.id.type === AST_NODE_TYPES.Identifier)
    return parent.id.name;
  if (
    (parent.type === AST_NODE_TYPES.Property ||
      parent.type === AST_NODE_TYPES.MethodDefinition ||
      parent.type === AST_NODE_TYPES.PropertyDefinition) &&
    parent.key.type === AST_NODE_TYPES.Identifier
  ) {
    return parent.key.name;
  }
  if (
    parent.type === AST_NODE_TYPES.AssignmentExpression &&
    parent.left.type === AST_NODE_TYPES.MemberExpression &&
    parent.left.property.type === AST_NODE_TYPES.Identifier
  ) {
    return parent.left.property.name;
  }
  if (parent.type === AST_NODE_TYPES.ExportDefaultDeclaration) return 'default';
  return undefined;
}
