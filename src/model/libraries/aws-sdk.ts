import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';

import type { Scope } from '../ast/context.js';
import { memberName } from '../ast/names.js';
import { unwrap } from '../ast/nodes.js';
import { resolveValue } from '../ast/values.js';
import { importSource } from '../modules.js';

/**
 * The AWS SDK for JavaScript v3: every operation is a command object sent through a service
 * client, `client.send(new PutItemCommand(input))`
 * (https://docs.aws.amazon.com/AWSJavaScriptSDK/v3/latest/introduction/#usage), the command
 * imported from the service's package (`@aws-sdk/client-sqs`, `@aws-sdk/client-dynamodb`) or from
 * the DynamoDB document client's (`@aws-sdk/lib-dynamodb`). An operation's name says what it does:
 * the reads are named by the verbs below (`GetItem`, `ListObjectsV2`, `Query`, `ReceiveMessage`,
 * `InvokeModel`), every other operation changes something in the account (`SendMessage`,
 * `Publish`, `PutEvents`, `PutItem`, `StartExecution`, `Invoke`), and a redelivery that runs it
 * again makes the change again. SQS's `DeleteMessage` and `ChangeMessageVisibility` settle a
 * delivery (handler/ack.ts), they are no work of their own.
 */

const AWS_MODULE = /^@aws-sdk\/(?:client-([\w-]+)|lib-(dynamodb|storage))$/;

/** Operations that read or compute and change nothing. */
const READ_OPERATION =
  /^(?:Get|List|Describe|Query|Scan|Head|BatchGet|Receive|Search|Select|Lookup|Check|Validate|Estimate|Simulate|Test|Filter|Preview|Poll|Download|Detect|Analyze|Recognize|Translate|Converse|InvokeModel|Count|Verify|Decrypt|Encrypt|Sign|Assume|Generate)/;

/** Operations that settle the delivery itself. */
const SETTLING_OPERATION =
  /^(?:DeleteMessage|DeleteMessageBatch|ChangeMessageVisibility|ChangeMessageVisibilityBatch)$/;

export interface AwsCommandWrite {
  /** The service, as its client package names it (`sqs`, `dynamodb`, `s3`, `eventbridge`). */
  service: string;
  /** The operation (`SendMessage`). */
  operation: string;
  /** It only deletes: run again, it finds nothing more to delete. */
  deletes?: true;
}

/** The AWS write `call` makes: `client.send(command)` with a command (in place or bound once) that changes something. */
export function awsCommandWrite(call: TSESTree.CallExpression, scope: Scope): AwsCommandWrite | undefined {
  const callee = unwrap(call.callee);
  if (callee.type !== AST_NODE_TYPES.MemberExpression || memberName(callee) !== 'send') return undefined;
  const [argument] = call.arguments;
  if (!argument || argument.type === AST_NODE_TYPES.SpreadElement) return undefined;
  const command = resolveValue(argument, scope);
  if (command.type !== AST_NODE_TYPES.NewExpression) return undefined;
  const constructor = unwrap(command.callee);
  if (constructor.type !== AST_NODE_TYPES.Identifier) return undefined;
  const source = importSource(constructor, scope);
  const module = source && AWS_MODULE.exec(source.module);
  if (!source || !module) return undefined;
  const operation = source.imported.replace(/Command$/, '');
  if (READ_OPERATION.test(operation) || SETTLING_OPERATION.test(operation)) return undefined;
  const service = module[1] ?? module[2] ?? 'aws';
  return { service, operation, ...(/^(?:Delete|Remove)/.test(operation) ? { deletes: true as const } : {}) };
}
