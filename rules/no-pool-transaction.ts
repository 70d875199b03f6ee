import { AST_NODE_TYPES, TSESLint, type TSESTree } from '@typescript-eslint/utils';
import { contains, enclosingFunction, unwrap } from '../src/model/ast/nodes.js';
import { findVariable } from '../src/model/ast/values.js';
import { type AnyRuleContext } from '../src/model/ast/context.js';
import { getQueryCall, getTaggedQuery } from '../src/model/sql/statements.js';
import { poolEvidence } from '../src/model/sql/pools.js';
import {
  type PoolTransactionStep,
  poolTransactionStep,
  transactionScope,
  sameReceiver,
  descendants,
} from '../src/model/sql/transactions.js';
import { localFunction } from '../src/model/sql/rollback.js';
import { isFunction } from '../src/model/ast/function.js';
import { createRule } from '../src/util/create-rule.js';

export type Options = [];
export type MessageIds = 'poolTransaction' | 'rewriteOnClient';

const STATEMENT_LABELS = {
  begin: 'BEGIN',
  commit: 'COMMIT',
  rollback: 'ROLLBACK',
  savepoint: 'SAVEPOINT',
  release: 'RELEASE SAVEPOINT',
} as const;

export default createRule<Options, MessageIds>({
  name: 'no-pool-transaction',
  meta: {
    type: 'problem',
    docs: {
      description: 'Disallow transaction statements sent through a connection pool',
      recommended: 'recommended',
      roles: ['server', 'script'],
    },
    hasSuggestions: true,
    messages: {
      poolTransaction:
        '`{{statement}}` goes through the pool `{{pool}}`, which may run each statement on a different connection, so the queries after it are not one transaction and a crash or a redelivery leaves them half applied.',
      rewriteOnClient: 'Check out one client with `{{pool}}.{{acquire}}()` and run the transaction on it.',
    },
    schema: [],
  },
  create(context) {
    return poolTransactionListeners(context, ({ step, steps: transaction }) => {
      const pool = context.sourceCode.getText(step.receiver);
      const rewrite = clientRewrite(transaction, context);
      context.report({
        node: step.node,
        messageId: 'poolTransaction',
        data: { statement: STATEMENT_LABELS[step.kind], pool },
        suggest: rewrite
          ? [
              {
                messageId: 'rewriteOnClient',
                data: { pool, acquire: step.pool.acquire },
                fix: (fixer) => fixer.replaceTextRange(rewrite.range, rewrite.text),
              },
            ]
          : [],
      });
    });
  },
});

// -- no-pool-transaction ------------------------------------------------------------------------

/** One statement to report and the whole transaction it belongs to. */
export interface PoolTransactionReport {
  step: PoolTransactionStep;
  steps: PoolTransactionStep[];
}

/**
 * Listeners that collect the file's pool transaction steps and, at the end of the file, hand
 * `report` each statement {@link poolTransactionReports} finds: the wiring a rule needs.
 */
export function poolTransactionListeners(
  context: AnyRuleContext,
  report: (found: PoolTransactionReport) => void,
): TSESLint.RuleListener {
  const steps: PoolTransactionStep[] = [];
  const record = (node: TSESTree.CallExpression | TSESTree.TaggedTemplateExpression): void => {
    const step = poolTransactionStep(node, context);
    if (step) steps.push(step);
  };
  return {
    CallExpression: record,
    TaggedTemplateExpression: record,
    'Program:exit'() {
      for (const found of poolTransactionReports(steps, context)) report(found);
    },
  };
}

/**
 * Which pool transaction statements of a file to report, so a function gets one report,
 * not one per statement. Statements are grouped by function; a statement in a callback
 * nested in a function that sends a BEGIN through a pool belongs to that function (the
 * callback style: `pool.query('BEGIN', () => pool.query('COMMIT'))`). Each group is reported
 * at its first BEGIN, or without one at its first other statement. A pool known only by its
 * name counts only when the group both begins and ends (COMMIT / ROLLBACK) a transaction on it.
 */
function poolTransactionReports(
  steps: readonly PoolTransactionStep[],
  context: AnyRuleContext,
): PoolTransactionReport[] {
  const beginScopes = steps.filter((step) => step.kind === 'begin').map((step) => transactionScope(step.node));
  const groups = new Map<TSESTree.Node, PoolTransactionStep[]>();
  for (const step of steps) {
    const own = transactionScope(step.node);
    const outer =
      beginScopes
        .filter((scope) => contains(scope, own))
        .sort((a, b) => a.range[0] - b.range[0] || b.range[1] - a.range[1])[0] ?? own;
    groups.set(outer, [...(groups.get(outer) ?? []), step]);
  }
  const reports: { step: PoolTransactionStep; steps: PoolTransactionStep[] }[] = [];
  for (const group of groups.values()) {
    const counted = group.filter(
      (step) =>
        step.pool.evidence !== 'name' ||
        (group.some((other) => other.kind === 'begin' && sameReceiver(other.receiver, step.receiver, context)) &&
          group.some(
            (other) =>
              (other.kind === 'commit' || other.kind === 'rollback') &&
              sameReceiver(other.receiver, step.receiver, context),
          )),
    );
    const step = counted.find((candidate) => candidate.kind === 'begin') ?? counted[0];
    if (step) reports.push({ step, steps: group });
  }
  return reports;
}

/**
 * A rewrite of one function's pool transaction onto one checked-out client:
 * `const client = await pool.connect(); try { ...client.query... } finally { client.release(); }`
 * (with `catch (error) { await client.query('ROLLBACK'); throw error; }` when the transaction has no ROLLBACK),
 * around the smallest run of statements holding every transaction statement. Offered only
 * when it is safe to do by hand: one pool whose library is known to lend connections with a
 * promise, an async function, every use of the pool in the run a `query` / `execute` call, no
 * helper of this file in the run that uses the pool, no declaration in the run used after it,
 * and the name `client` free.
 */
export function clientRewrite(
  steps: readonly PoolTransactionStep[],
  context: AnyRuleContext,
): { range: [number, number]; text: string } | undefined {
  const [first] = steps;
  if (!first?.pool.acquire || !steps.some((step) => step.kind === 'begin')) return undefined;
  const pool = unwrap(first.receiver);
  if (!steps.every((step) => step.pool.acquire === first.pool.acquire && sameReceiver(step.receiver, pool, context)))
    return undefined;
  const poolText = context.sourceCode.getText(pool);
  const isSimple =
    pool.type === AST_NODE_TYPES.Identifier ||
    (pool.type === AST_NODE_TYPES.MemberExpression &&
      pool.object.type === AST_NODE_TYPES.ThisExpression &&
      !pool.computed);
  if (!isSimple) return undefined;
  const fn = enclosingFunction(first.node);
  if (!fn?.async) return undefined;
  const run = statementRun(steps.map((step) => step.node));
  if (!run) return undefined;
  const start = run.statements[0];
  const end = run.statements[run.statements.length - 1];
  if (!start || !end) return undefined;
  const range: [number, number] = [start.range[0], end.range[1]];
  const inside = run.statements.flatMap((statement) => [statement, ...descendants(statement, context)]);
  const clientName = 'client';
  if (inside.some((node) => node.type === AST_NODE_TYPES.Identifier && node.name === clientName)) return undefined;
  if (findVariable(context.sourceCode.getScope(start), clientName)) return undefined;
  // Every use of the pool in the run must be a query through it.
  const receivers: TSESTree.Node[] = [];
  for (const node of inside) {
    if (node.type === AST_NODE_TYPES.TaggedTemplateExpression && getTaggedQuery(node, context)) return undefined;
    if (node.type === AST_NODE_TYPES.CallExpression) {
      const query = getQueryCall(node, context);
      if (query && sameReceiver(query.receiver, pool, context)) receivers.push(unwrap(query.receiver));
      else if (query && poolEvidence(query.receiver, context)) return undefined;
      const helper = localFunction(unwrap(node.callee), context);
      if (helper && context.sourceCode.getText(helper.body).includes(poolText)) return undefined;
    }
  }
  const uses = inside.filter(
    (node) =>
      context.sourceCode.getText(node) === poolText &&
      (node.type === AST_NODE_TYPES.Identifier || node.type === AST_NODE_TYPES.MemberExpression),
  );
  if (uses.some((use) => !receivers.includes(use) && !receivers.some((receiver) => contains(receiver, use))))
    return undefined;
  if (declaresUsedLater(run.statements, context)) return undefined;

  const text = context.sourceCode.text;
  const lineStart = text.lastIndexOf('\n', range[0] - 1) + 1;
  const indent = /^[ \t]*/.exec(text.slice(lineStart))?.[0] ?? '';
  const unit = indent.startsWith('\t') ? '\t' : '  ';
  const frozen = inside.filter(
    (node) => node.type === AST_NODE_TYPES.TemplateLiteral || node.type === AST_NODE_TYPES.Literal,
  );
  const edits: { at: number; to: number; text: string }[] = receivers.map((receiver) => ({
    at: receiver.range[0],
    to: receiver.range[1],
    text: clientName,
  }));
  for (let i = text.indexOf('\n', range[0]); i !== -1 && i < range[1]; i = text.indexOf('\n', i + 1)) {
    const at = i + 1;
    if (frozen.some((node) => node.range[0] < at && at < node.range[1])) continue;
    if (text.slice(at, text.indexOf('\n', at) === -1 ? undefined : text.indexOf('\n', at)).trim() === '') continue;
    edits.push({ at, to: at, text: unit });
  }
  edits.sort((a, b) => a.at - b.at);
  let body = '';
  let cursor = range[0];
  for (const edit of edits) {
    body += text.slice(cursor, edit.at) + edit.text;
    cursor = edit.to;
  }
  body += text.slice(cursor, range[1]);
  const acquired = `const ${clientName} = await ${poolText}.${first.pool.acquire}();`;
  // A transaction without a ROLLBACK of its own gets one in `catch`: the rewrite must not leave
  // what require-rollback reports (an aborted transaction on a client that goes back to the pool).
  const rollback = steps.some((step) => step.kind === 'rollback')
    ? ''
    : ` catch (error) {\n${indent}${unit}await ${clientName}.query('ROLLBACK');\n${indent}${unit}throw error;\n${indent}}`;
  return {
    range,
    text: `${acquired}\n${indent}try {\n${indent}${unit}${body}\n${indent}}${rollback} finally {\n${indent}${unit}${clientName}.release();\n${indent}}`,
  };
}

/** The shortest run of sibling statements (in one block) that holds every node, or undefined. */
function statementRun(nodes: readonly TSESTree.Node[]): { statements: TSESTree.Statement[] } | undefined {
  const chains = nodes.map((node) => {
    const chain: TSESTree.Node[] = [];
    for (let current: TSESTree.Node | undefined = node; current; current = current.parent) chain.unshift(current);
    return chain;
  });
  const [shortest] = [...chains].sort((a, b) => a.length - b.length);
  if (!shortest) return undefined;
  let depth = 0;
  while (depth < shortest.length && chains.every((chain) => chain[depth] === shortest[depth])) depth++;
  // chains[*][depth - 1] is the lowest common ancestor; climb to a block that lists statements.
  for (let level = depth - 1; level >= 0; level--) {
    const ancestor = shortest[level];
    if (!ancestor || isFunction(ancestor)) return undefined;
    if (ancestor.type !== AST_NODE_TYPES.BlockStatement) continue;
    const children = chains.map((chain) => chain[level + 1]);
    const indices = children.map((child) => ancestor.body.indexOf(child as TSESTree.Statement));
    if (indices.some((index) => index === -1)) return undefined;
    return { statements: ancestor.body.slice(Math.min(...indices), Math.max(...indices) + 1) };
  }
  return undefined;
}

/** True when a statement of the run declares a name that is used after the run. */
function declaresUsedLater(statements: readonly TSESTree.Statement[], context: AnyRuleContext): boolean {
  const end = statements[statements.length - 1]?.range[1] ?? 0;
  for (const statement of statements) {
    if (
      statement.type !== AST_NODE_TYPES.VariableDeclaration &&
      statement.type !== AST_NODE_TYPES.FunctionDeclaration &&
      statement.type !== AST_NODE_TYPES.ClassDeclaration
    )
      continue;
    for (const variable of context.sourceCode.getDeclaredVariables(statement)) {
      if (variable.references.some((reference) => reference.identifier.range[0] > end)) return true;
    }
  }
  return false;
}
