import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';
import { unwrap } from '../ast/nodes.js';
import { propertyKeyName } from '../ast/names.js';
import { isFunction } from '../ast/function.js';
import { type ConsumerHandler } from './consumer-handler.js';
import { classMethods } from './methods.js';
import { type Scope } from '../ast/context.js';
import { importSource } from '../modules.js';
import { DELIVERY_LIBRARIES } from '../libraries/index.js';

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

/** Modules whose types are a delivery a broker or job runner hands a handler: the libraries' and Lambda's event types. */
const DELIVERY_TYPE_MODULES: ReadonlySet<string> = new Set([
  ...DELIVERY_LIBRARIES.flatMap((library) => library.modules),
  'aws-lambda',
]);

/**
 * Whether a class declares a work method (abstract or not) whose first parameter is typed with a
 * broker's delivery (`abstract perform(jobs: Job<T>[])` with `Job` of pg-boss, `process(job: Job)`
 * of bullmq): the project's base worker, whose subclasses' work methods its queue module runs per
 * job, wherever that module registers them.
 */
export function worksOnDeliveries(cls: TSESTree.ClassDeclaration | TSESTree.ClassExpression, scope: Scope): boolean {
  return cls.body.body.some((member) => {
    if (member.type !== AST_NODE_TYPES.MethodDefinition && member.type !== AST_NODE_TYPES.TSAbstractMethodDefinition)
      return false;
    const name = member.key.type === AST_NODE_TYPES.Identifier ? member.key.name : undefined;
    if (name === undefined || !WORK_METHODS.test(name)) return false;
    const param = member.value.params[0];
    let type = param?.type === AST_NODE_TYPES.Identifier ? param.typeAnnotation?.typeAnnotation : undefined;
    if (type?.type === AST_NODE_TYPES.TSArrayType) type = type.elementType;
    if (type?.type !== AST_NODE_TYPES.TSTypeReference) return false;
    const typeName = type.typeName.type === AST_NODE_TYPES.TSQualifiedName ? type.typeName.left : type.typeName;
    if (typeName.type !== AST_NODE_TYPES.Identifier) return false;
    const source = importSource(typeName, scope);
    return source !== undefined && DELIVERY_TYPE_MODULES.has(source.module);
  });
}
