import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';

import { type AnyRuleContext } from './ast/context.js';
import { memberPath } from './ast/names.js';
import { unwrap } from './ast/nodes.js';
import { ownMethodOf } from './handler/methods.js';
import { asyncCallKind } from './handler/async-call.js';
import { getOutgoingRequest, isReadMethod, type OutgoingRequest } from './http/request.js';
import { getSdkWrite, type SdkWrite } from './sdk.js';
import { getMailSend } from './mail.js';
import { awsCommandWrite, type AwsCommandWrite } from './libraries/aws-sdk.js';
import { getQueryCall, isDeleteStatement, isWriteStatement } from './sql/statements.js';
import { getOrmWrite, isOrmDelete } from './orm/writes.js';
import { type OrmLibrary } from './orm/libraries.js';

/**
 * What a call writes to another system, the one answer for every consumer of the question:
 * the ack and auto-ack rules (work that must not come after an ack), and the handler
 * inventory's effects and verdicts. A second delivery repeats each of these.
 */
export type Write =
  /** A SQL statement that changes rows, through any driver; `deletes` when it only deletes. */
  | { kind: 'sql'; deletes?: true }
  /** A create, update, upsert or delete through an ORM or query builder (Prisma, Drizzle, Knex, TypeORM, ...). */
  | { kind: 'orm'; orm: OrmLibrary; deletes?: true }
  /** An HTTP request with a method that changes state. */
  | { kind: 'http'; request: OutgoingRequest }
  /** A write through a vendor SDK (Stripe, ...). */
  | { kind: 'sdk'; sdk: SdkWrite }
  /** An email sent through a mail library or provider (mail.ts). */
  | { kind: 'mail'; library: string }
  /** A command of the AWS SDK that changes something in the account (libraries/aws-sdk.ts). */
  | { kind: 'aws'; aws: AwsCommandWrite };

const PRISMA_WRITE = /^(create|update|upsert|delete)/;

/** The write `call` makes, or undefined when it reads or is not a known write. */
export function getWrite(call: TSESTree.CallExpression, context: AnyRuleContext): Write | undefined {
  // `this.update(row)` in a class that declares `update` runs that method: what it writes is
  // read in its body (the summaries follow the call), not guessed from its name.
  const callee = unwrap(call.callee);
  if (callee.type === AST_NODE_TYPES.MemberExpression && ownMethodOf(callee)) return undefined;
  const query = getQueryCall(call, context);
  if (query?.text !== undefined && isWriteStatement(query.text))
    return isDeleteStatement(query.text) ? { kind: 'sql', deletes: true } : { kind: 'sql' };
  const request = getOutgoingRequest(call, context);
  if (request?.method !== undefined && !isReadMethod(request.method)) return { kind: 'http', request };
  const sdk = getSdkWrite(call, context);
  // A second Checkout Session is a second link, not a second charge: nothing a redelivery repeats.
  if (sdk?.ephemeral) return undefined;
  if (sdk) return { kind: 'sdk', sdk };
  const mail = getMailSend(call, context);
  if (mail) return { kind: 'mail', library: mail.library };
  const aws = awsCommandWrite(call, context.sourceCode.getScope(call));
  if (aws) return { kind: 'aws', aws };
  if (asyncCallKind(call, context) === 'prisma' && PRISMA_WRITE.test(memberPath(call.callee)?.at(-1) ?? ''))
    return isOrmDelete(call) ? { kind: 'orm', orm: 'prisma', deletes: true } : { kind: 'orm', orm: 'prisma' };
  const orm = getOrmWrite(call, context);
  if (!orm) return undefined;
  return isOrmDelete(call) ? { kind: 'orm', orm, deletes: true } : { kind: 'orm', orm };
}

/** A short name for what a write writes to: `sql`, `prisma`, `http`, or the SDK's name. */
export function writeTarget(write: Write): string {
  switch (write.kind) {
    case 'sql':
      return 'sql';
    case 'orm':
      return write.orm;
    case 'http':
      return 'http';
    case 'sdk':
      return write.sdk.sdk;
    case 'mail':
      return write.library;
    case 'aws':
      return `aws-${write.aws.service}`;
  }
}

/** The inventory's effect of an email sent. */
const MAIL_EFFECT = 'mail';

/** The inventory's effect of a request that changes state. */
export const HTTP_WRITE_EFFECT = 'http-write';

/**
 * Effects a redelivery repeats without a further effect: deletes (run again, they find what they
 * matched gone) and HTTP `DELETE`, idempotent by definition (RFC 9110, section 9.2.2).
 */
export const REPEATABLE_EFFECTS: ReadonlySet<string> = new Set([
  'sql-delete',
  'db-delete',
  'http-delete',
  'aws-delete',
]);

/** The inventory's effect of an AWS command that only deletes (`DeleteItem`, `DeleteObject`). */
const AWS_DELETE_EFFECT = 'aws-delete';

/**
 * The inventory's effect name: `sql-write`, `db-write` (an ORM), `http-write`, `mail`, `aws-<service>`, or the SDK's name;
 * `sql-delete`, `db-delete` and `http-delete` for writes that only delete ({@link REPEATABLE_EFFECTS}).
 */
export function effectOf(write: Write): string {
  switch (write.kind) {
    case 'sql':
      return write.deletes ? 'sql-delete' : 'sql-write';
    case 'orm':
      return write.deletes ? 'db-delete' : 'db-write';
    case 'http':
      return write.request.method === 'DELETE' ? 'http-delete' : HTTP_WRITE_EFFECT;
    case 'sdk':
      return write.sdk.sdk;
    case 'mail':
      return MAIL_EFFECT;
    case 'aws':
      return write.aws.deletes ? AWS_DELETE_EFFECT : `aws-${write.aws.service}`;
  }
}
