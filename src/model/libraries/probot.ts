import { AST_NODE_TYPES, TSESLint, type TSESTree } from '@typescript-eslint/utils';

import type { AnyRuleContext } from '../ast/context.js';
import { unwrap } from '../ast/nodes.js';
import { isFunction } from '../ast/function.js';
import { findVariable, resolveValue, staticString } from '../ast/values.js';
import { nearestManifest } from '../roles/package.js';
import type { DeliveryLibrary } from './library.js';

/**
 * GitHub webhooks through Probot (`app.on('issues.opened', handler)` in the app function
 * `probot run` loads, https://probot.github.io/docs/webhooks/) and Octokit (`webhooks.on(event,
 * handler)` of `@octokit/webhooks`, `app.webhooks.on(…)` of `@octokit/app`,
 * https://github.com/octokit/webhooks.js#webhookson): each handler runs once per delivery of its
 * event, and a delivery GitHub or the app's owner redelivers runs it again. Both verify the
 * `X-Hub-Signature-256` header before any handler runs.
 *
 * `on` is every event emitter's method, so the event must be one of GitHub's
 * (https://docs.github.com/en/webhooks/webhook-events-and-payloads), optionally with its action
 * (`pull_request.opened`), and the receiver the library's: the file imports it, or the receiver is
 * the first parameter of the function the module exports in a package that depends on `probot`
 * (an app function, `module.exports = (app) => { … }`, which needs no import of its own).
 */
export const probot: DeliveryLibrary<'webhook'> = {
  broker: 'webhook',
  modules: ['probot', '@octokit/webhooks', '@octokit/app'],
  registrations: [
    {
      call: { method: ['on'] },
      receiver: { test: isGitHubWebhookOn },
      arguments: { min: 2, max: 2 },
      handler: { argument: 1 },
      queue: [{ argument: 0 }],
    },
  ],
};

/** GitHub's webhook events (https://docs.github.com/en/webhooks/webhook-events-and-payloads). */
const GITHUB_EVENTS = new Set([
  'branch_protection_configuration',
  'branch_protection_rule',
  'check_run',
  'check_suite',
  'code_scanning_alert',
  'commit_comment',
  'create',
  'custom_property',
  'custom_property_values',
  'delete',
  'dependabot_alert',
  'deploy_key',
  'deployment',
  'deployment_protection_rule',
  'deployment_review',
  'deployment_status',
  'discussion',
  'discussion_comment',
  'fork',
  'github_app_authorization',
  'gollum',
  'installation',
  'installation_repositories',
  'installation_target',
  'issue_comment',
  'issues',
  'label',
  'marketplace_purchase',
  'member',
  'membership',
  'merge_group',
  'meta',
  'milestone',
  'org_block',
  'organization',
  'package',
  'page_build',
  'personal_access_token_request',
  'ping',
  'project',
  'project_card',
  'project_column',
  'projects_v2',
  'projects_v2_item',
  'public',
  'pull_request',
  'pull_request_review',
  'pull_request_review_comment',
  'pull_request_review_thread',
  'push',
  'registry_package',
  'release',
  'repository',
  'repository_advisory',
  'repository_dispatch',
  'repository_import',
  'repository_ruleset',
  'repository_vulnerability_alert',
  'secret_scanning_alert',
  'secret_scanning_alert_location',
  'security_advisory',
  'security_and_analysis',
  'sponsorship',
  'star',
  'status',
  'team',
  'team_add',
  'watch',
  'workflow_dispatch',
  'workflow_job',
  'workflow_run',
]);

/** `'push'`, `'pull_request.opened'`, or an array (or a binding of one) of such names. */
function namesGitHubEvents(node: TSESTree.Node, context: AnyRuleContext): boolean {
  const scope = context.sourceCode.getScope(node);
  const value = resolveValue(node, scope);
  const names =
    value.type === AST_NODE_TYPES.ArrayExpression
      ? value.elements.map((element) =>
          element && element.type !== AST_NODE_TYPES.SpreadElement ? staticString(element, scope) : undefined,
        )
      : [staticString(value, scope)];
  return names.length > 0 && names.every((name) => name !== undefined && GITHUB_EVENTS.has(name.split('.')[0] ?? ''));
}

function isGitHubWebhookOn(
  receiver: TSESTree.Node,
  call: TSESTree.CallExpression,
  context: AnyRuleContext,
  imports: ReadonlySet<string>,
): boolean {
  const [event] = call.arguments;
  if (!event || event.type === AST_NODE_TYPES.SpreadElement || !namesGitHubEvents(event, context)) return false;
  if (probot.modules.some((module) => imports.has(module))) return true;
  return (
    isAppFunctionParameter(unwrap(receiver), context) && !!nearestManifest(context.filename)?.dependencies.has('probot')
  );
}

/** The first parameter of the function the module exports (`module.exports = (app) => …`, `export default (app) => …`). */
function isAppFunctionParameter(receiver: TSESTree.Node, context: AnyRuleContext): boolean {
  if (receiver.type !== AST_NODE_TYPES.Identifier) return false;
  const def = findVariable(context.sourceCode.getScope(receiver), receiver)?.defs[0];
  const fn = def?.type === TSESLint.Scope.DefinitionType.Parameter ? def.node : undefined;
  if (!fn || !isFunction(fn) || fn.params[0] !== def?.name) return false;
  const parent = fn.parent;
  if (parent.type === AST_NODE_TYPES.ExportDefaultDeclaration) return true;
  return (
    parent.type === AST_NODE_TYPES.AssignmentExpression &&
    context.sourceCode.getText(parent.left).replace(/\s/g, '') === 'module.exports'
  );
}
