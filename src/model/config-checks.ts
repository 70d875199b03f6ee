import { AST_NODE_TYPES, TSESLint, type TSESTree } from '@typescript-eslint/utils';

import { unwrap } from './ast/nodes.js';
import { findProperty, findVariable, resolveValue, staticValue } from './ast/values.js';
import { memberName, memberPath } from './ast/names.js';
import { forEachNode } from './ast/walk.js';
import { importSource } from './modules.js';
import { type AnyRuleContext, type Scope } from './ast/context.js';
import { resolveFunction } from './ast/function.js';
import { walk } from './ast/walk.js';

/**
 * Deployment settings that decide when a broker redelivers: an SQS queue whose visibility
 * timeout is shorter than the Lambda that consumes it (the message reappears while the first
 * invocation still runs), and a BullMQ worker whose lock expires before a timeout it awaits
 * (the job is declared stalled and handed to another worker). Both duplicate every slow job.
 */

export type ConfigCheck = 'no-short-visibility-timeout' | 'no-short-lock-duration';

export interface ConfigIssue {
  check: ConfigCheck;
  node: TSESTree.Node;
  /** Seconds (SQS) or milliseconds (BullMQ) of the shorter setting and the longer timeout. */
  shorter: number;
  longer: number;
}

/** SQS's default visibility timeout and Lambda's default timeout, in seconds. */
const SQS_DEFAULT_VISIBILITY = 30;
const LAMBDA_DEFAULT_TIMEOUT = 3;
/** BullMQ's default `lockDuration`, in milliseconds. */
const BULLMQ_DEFAULT_LOCK = 30_000;

const CDK_SQS = new Set(['aws-cdk-lib/aws-sqs', '@aws-cdk/aws-sqs']);
const CDK_LAMBDA = new Set([
  'aws-cdk-lib/aws-lambda',
  '@aws-cdk/aws-lambda',
  'aws-cdk-lib/aws-lambda-nodejs',
  '@aws-cdk/aws-lambda-nodejs',
]);
const CDK_EVENT_SOURCES = new Set(['aws-cdk-lib/aws-lambda-event-sources', '@aws-cdk/aws-lambda-event-sources']);
const LAMBDA_CONSTRUCTS = new Set(['Function', 'NodejsFunction', 'DockerImageFunction']);

/**
 * Both checks need an import from one of these modules (`isConstruct`), so a file without the
 * text is skipped without a walk; one file's issues are computed once for both rules.
 */
const MODULE_TEXT = /bullmq|aws-lambda-event-sources/;
const issuesBySource = new WeakMap<object, ConfigIssue[]>();

/** The issues of one check in the linted file, from one walk shared by both checks. */
export function configIssuesOf(program: TSESTree.Program, context: AnyRuleContext, check: ConfigCheck): ConfigIssue[] {
  let issues = issuesBySource.get(context.sourceCode);
  if (!issues) {
    issues = MODULE_TEXT.test(context.sourceCode.text) ? findConfigIssues(program, context) : [];
    issuesBySource.set(context.sourceCode, issues);
  }
  return issues.filter((issue) => issue.check === check);
}

/** Both checks over one file. */
export function findConfigIssues(program: TSESTree.Program, context: AnyRuleContext): ConfigIssue[] {
  const issues: ConfigIssue[] = [];
  forEachNode(program, context, (node) => {
    if (node.type !== AST_NODE_TYPES.NewExpression) return;
    const sqs = sqsEventSourceIssue(node, context);
    if (sqs) issues.push(sqs);
    const lock = lockDurationIssue(node, context);
    if (lock) issues.push(lock);
  });
  return issues.sort((a, b) => a.node.range[0] - b.node.range[0]);
}

/** `new X(...)` where X is `name` imported from one of `modules`, directly or as `ns.name`. */
function isConstruct(
  node: TSESTree.NewExpression,
  names: ReadonlySet<string>,
  modules: ReadonlySet<string>,
  scope: Scope,
): string | undefined {
  const callee = unwrap(node.callee);
  if (callee.type === AST_NODE_TYPES.Identifier) {
    const source = importSource(callee, scope);
    return source && modules.has(source.module) && names.has(source.imported) ? source.imported : undefined;
  }
  if (callee.type === AST_NODE_TYPES.MemberExpression && callee.object.type === AST_NODE_TYPES.Identifier) {
    const source = importSource(callee.object, scope);
    const name = memberName(callee);
    return source && modules.has(source.module) && name !== undefined && names.has(name) ? name : undefined;
  }
  return undefined;
}

/** `Duration.seconds(n)` / `.minutes(n)` / `.millis(n)` / `.hours(n)` in seconds; undefined when not static. */
function durationSeconds(node: TSESTree.Node, scope: Scope): number | undefined {
  const value = resolveValue(node, scope);
  if (value.type !== AST_NODE_TYPES.CallExpression || !value.arguments[0]) return undefined;
  const path = memberPath(value.callee, scope);
  if (path?.length !== 2 || path[0] !== 'Duration') return undefined;
  const amount = staticValue(value.arguments[0], scope)?.value;
  if (typeof amount !== 'number') return undefined;
  const factor: Record<string, number> = { millis: 0.001, seconds: 1, minutes: 60, hours: 3600 };
  const unit = factor[path[1] ?? ''];
  return unit === undefined ? undefined : amount * unit;
}

/** The props object (third argument) of a CDK construct, or undefined when absent or opaque. */
function constructProps(node: TSESTree.NewExpression, scope: Scope): TSESTree.ObjectExpression | 'none' | undefined {
  const props = node.arguments[2];
  if (!props) return 'none';
  const value = resolveValue(props, scope);
  return value.type === AST_NODE_TYPES.ObjectExpression ? value : undefined;
}

/** A duration prop in seconds: the default when absent, undefined when not static. */
function durationProp(
  node: TSESTree.NewExpression,
  name: string,
  fallback: number,
  scope: Scope,
): { seconds: number; node: TSESTree.Node } | undefined {
  const props = constructProps(node, scope);
  if (props === undefined) return undefined;
  if (props === 'none') return { seconds: fallback, node };
  const property = findProperty(props, (key) => key === name, scope);
  if (property === 'unknown') return undefined;
  if (!property) return { seconds: fallback, node };
  const seconds = durationSeconds(property.value, scope);
  return seconds === undefined ? undefined : { seconds, node: property };
}

/** The construct a variable was created with: `const q = new sqs.Queue(...)`. */
function constructOf(node: TSESTree.Node, scope: Scope): TSESTree.NewExpression | undefined {
  const value = resolveValue(node, scope);
  return value.type === AST_NODE_TYPES.NewExpression ? value : undefined;
}

/**
 * `new SqsEventSource(queue)` attached to a Lambda (`fn.addEventSource(...)` or the
 * function's `events: [...]` prop) where the queue's visibility timeout is shorter than the
 * function's timeout. Reported on the queue's `visibilityTimeout` (or the queue).
 */
function sqsEventSourceIssue(node: TSESTree.NewExpression, context: AnyRuleContext): ConfigIssue | undefined {
  const scope = context.sourceCode.getScope(node);
  if (!isConstruct(node, new Set(['SqsEventSource']), CDK_EVENT_SOURCES, scope) || !node.arguments[0]) return undefined;
  const queue = constructOf(node.arguments[0], scope);
  if (!queue || !isConstruct(queue, new Set(['Queue']), CDK_SQS, context.sourceCode.getScope(queue))) return undefined;
  const lambda = consumingFunction(node, scope);
  if (!lambda) return undefined;
  const visibility = durationProp(
    queue,
    'visibilityTimeout',
    SQS_DEFAULT_VISIBILITY,
    context.sourceCode.getScope(queue),
  );
  const timeout = durationProp(lambda, 'timeout', LAMBDA_DEFAULT_TIMEOUT, context.sourceCode.getScope(lambda));
  if (!visibility || !timeout || visibility.seconds >= timeout.seconds) return undefined;
  return {
    check: 'no-short-visibility-timeout',
    node: visibility.node,
    shorter: visibility.seconds,
    longer: timeout.seconds,
  };
}

/** The Lambda construct an event source is attached to. */
function consumingFunction(source: TSESTree.NewExpression, scope: Scope): TSESTree.NewExpression | undefined {
  let parent = source.parent;
  // fn.addEventSource(new SqsEventSource(q))
  if (parent.type === AST_NODE_TYPES.CallExpression && parent.arguments.includes(source)) {
    const callee = unwrap(parent.callee);
    if (callee.type === AST_NODE_TYPES.MemberExpression && memberName(callee) === 'addEventSource') {
      const fn = constructOf(callee.object, scope);
      return fn && isConstruct(fn, LAMBDA_CONSTRUCTS, CDK_LAMBDA, scope) ? fn : undefined;
    }
    return undefined;
  }
  // new lambda.Function(this, 'Fn', { events: [new SqsEventSource(q)] })
  if (parent.type === AST_NODE_TYPES.ArrayExpression) {
    parent = parent.parent;
    if (parent.type === AST_NODE_TYPES.Property && parent.parent.type === AST_NODE_TYPES.ObjectExpression) {
      const construct = parent.parent.parent;
      if (
        construct.type === AST_NODE_TYPES.NewExpression &&
        isConstruct(construct, LAMBDA_CONSTRUCTS, CDK_LAMBDA, scope)
      )
        return construct;
    }
  }
  return undefined;
}

/**
 * `new Worker(name, processor, { lockDuration })` from bullmq whose processor awaits a
 * timeout longer than the lock (`AbortSignal.timeout(n)`, a `timeout: n` option, a
 * `setTimeout(..., n)` sleep). Reported on `lockDuration` (or the Worker when it uses the default).
 */
function lockDurationIssue(node: TSESTree.NewExpression, context: AnyRuleContext): ConfigIssue | undefined {
  const scope = context.sourceCode.getScope(node);
  if (!isConstruct(node, new Set(['Worker']), new Set(['bullmq']), scope) || !node.arguments[1]) return undefined;
  const processor = resolveFunction(node.arguments[1], scope);
  if (!processor) return undefined;
  let lock = BULLMQ_DEFAULT_LOCK;
  let reportAt: TSESTree.Node = node;
  const options = node.arguments[2] && resolveValue(node.arguments[2], scope);
  if (options) {
    if (options.type !== AST_NODE_TYPES.ObjectExpression) return undefined;
    const property = findProperty(options, (key) => key === 'lockDuration', scope);
    if (property === 'unknown') return undefined;
    if (property) {
      const value = staticValue(property.value, scope)?.value;
      if (typeof value !== 'number') return undefined;
      lock = value;
      reportAt = property;
    }
  }
  const longest = longestTimeout(processor, context);
  if (longest === undefined || longest <= lock) return undefined;
  return { check: 'no-short-lock-duration', node: reportAt, shorter: lock, longer: longest };
}

/** The longest static timeout (ms) the function sets on something it awaits. */
function longestTimeout(fn: TSESTree.FunctionLike, context: AnyRuleContext): number | undefined {
  let longest: number | undefined;
  const note = (node: TSESTree.Node | undefined): void => {
    if (!node) return;
    const value = staticValue(node, context.sourceCode.getScope(node))?.value;
    if (typeof value === 'number' && Number.isFinite(value) && value > 0) longest = Math.max(longest ?? 0, value);
  };
  if (!fn.body) return undefined;
  walk(fn.body, context, (node) => {
    if (node.type === AST_NODE_TYPES.CallExpression) {
      const path = memberPath(node.callee);
      const name = path?.join('.');
      if (name === 'AbortSignal.timeout') note(node.arguments[0]);
      // await new Promise((resolve) => setTimeout(resolve, n)): a sleep the job waits out.
      if ((name === 'setTimeout' || name === 'timers.setTimeout') && isAwaitedSleep(node, context))
        note(node.arguments[1]);
    }
    if (
      node.type === AST_NODE_TYPES.Property &&
      !node.computed &&
      node.key.type === AST_NODE_TYPES.Identifier &&
      node.key.name === 'timeout'
    ) {
      // A request option: only inside a call's arguments, not any object named timeout.
      if (
        node.parent.type === AST_NODE_TYPES.ObjectExpression &&
        node.parent.parent.type === AST_NODE_TYPES.CallExpression
      )
        note(node.value);
    }
  });
  return longest;
}

/** `setTimeout(resolve, n)` inside `new Promise((resolve) => ...)`. */
function isAwaitedSleep(call: TSESTree.CallExpression, context: AnyRuleContext): boolean {
  const first = call.arguments[0];
  if (first?.type !== AST_NODE_TYPES.Identifier) return false;
  const variable = findVariable(context.sourceCode.getScope(call), first);
  const def = variable?.defs[0];
  if (def?.type !== TSESLint.Scope.DefinitionType.Parameter) return false;
  const executor = def.node;
  return (
    executor.parent.type === AST_NODE_TYPES.NewExpression && memberPath(executor.parent.callee)?.join('.') === 'Promise'
  );
}
