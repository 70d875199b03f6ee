import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';
import { unwrap } from '../ast/nodes.js';
import { propertyKeyName } from '../ast/names.js';
import { isFunction } from '../ast/function.js';
import { type ConsumerHandler } from './consumer-handler.js';
import { classMethods } from './methods.js';

/**
 * A project's own job system, written as workers: an object that implements the project's
 * worker interface (`const Mailer: IWorkerAdapter<In, Out> = { ...WorkerAdapter, type, doWork }`)
 * or a class that extends the project's base worker or queue (`class PredictionQueue extends
 * BaseQueue { async processJob(data) }`), whose base or registry pulls each job from a durable
 * queue and calls the work method. The work method runs once per delivery of the job.
 */

/** Type and base names of a worker: `IWorkerAdapter`, `JobHandler`, `BaseQueue`, `PrioritizedQueueReceiver`. */
const WORKER_TYPE =
  /^(?:I|Base|Abstract)?\w*(?:Worker|Job|Task|Consumer|Processor|Queue)(?:Adapter|Handler|Definition|Plugin|Base|Host|Rec(?:ei|ie)ver)?$/;

/** Methods a worker's base or registry calls per job. */
const WORK_METHODS = /^(?:doWork|processJob|processMessage|handleJob|handleMessage|onMessage|perform|process|consume)$/;

/** Keys of a job that a timer starts in the process (`cronTime: '0 * * * *'`): no broker delivers it, or again. */
const SCHEDULE_KEYS = /^(?:cron|cronTime|cronExpression|schedule|interval|every)$/;

/** A work method that only throws: the work of an external worker runs elsewhere. */
function onlyThrows(fn: TSESTree.FunctionLike): boolean {
  const body = fn.body;
  return (
    body?.type === AST_NODE_TYPES.BlockStatement &&
    body.body.length === 1 &&
    body.body[0]?.type === AST_NODE_TYPES.ThrowStatement
  );
}

/** The work method of an object implementing a worker interface, by annotation or by spreading a base adapter. */
export function workerObjectHandlers(declarator: TSESTree.VariableDeclarator): ConsumerHandler[] {
  const init = declarator.init && unwrap(declarator.init);
  if (init?.type !== AST_NODE_TYPES.ObjectExpression) return [];
  const annotation =
    declarator.id.type === AST_NODE_TYPES.Identifier ? declarator.id.typeAnnotation?.typeAnnotation : undefined;
  const typed =
    annotation?.type === AST_NODE_TYPES.TSTypeReference &&
    annotation.typeName.type === AST_NODE_TYPES.Identifier &&
    WORKER_TYPE.test(annotation.typeName.name);
  const spreadsBase = init.properties.some(
    (property) =>
      property.type === AST_NODE_TYPES.SpreadElement &&
      property.argument.type === AST_NODE_TYPES.Identifier &&
      WORKER_TYPE.test(property.argument.name),
  );
  if (!typed && !spreadsBase) return [];
  const scheduled = init.properties.some((property) => {
    const key = property.type === AST_NODE_TYPES.Property ? propertyKeyName(property) : undefined;
    return key !== undefined && SCHEDULE_KEYS.test(key);
  });
  if (scheduled) return [];
  return init.properties.flatMap((property) => {
    if (property.type !== AST_NODE_TYPES.Property) return [];
    const name = propertyKeyName(property);
    const fn = unwrap(property.value);
    if (name === undefined || !WORK_METHODS.test(name) || !isFunction(fn) || onlyThrows(fn)) return [];
    return [
      { fn, broker: 'project-worker' as const, queue: undefined, registration: declarator, messageParam: fn.params[0] },
    ];
  });
}

/** The work method of a class that extends a base worker or queue. */
export function workerClassHandlers(cls: TSESTree.ClassDeclaration | TSESTree.ClassExpression): ConsumerHandler[] {
  const base = cls.superClass && unwrap(cls.superClass);
  if (base?.type !== AST_NODE_TYPES.Identifier || !WORKER_TYPE.test(base.name)) return [];
  return classMethods(cls.body).flatMap(({ name, member }) =>
    WORK_METHODS.test(name) && member.value.body
      ? [
          {
            fn: member.value,
            broker: 'project-worker' as const,
            queue: undefined,
            registration: cls,
            messageParam: member.value.params[0],
          },
        ]
      : [],
  );
}
