import { agenda } from './agenda.js';
import { amqplib } from './amqplib.js';
import { azureServiceBus } from './azure-service-bus.js';
import { ffcMessaging } from './ffc-messaging.js';
import { beeQueue } from './bee-queue.js';
import { betterAuthStripe } from './better-auth-stripe.js';
import { bull } from './bull.js';
import { bullmq } from './bullmq.js';
import { cadenceMq } from './cadence-mq.js';
import { centralServicesStream } from './central-services-stream.js';
import { firebaseFunctions, firebaseWebhooks } from './firebase-functions.js';
import { graphileWorker } from './graphile-worker.js';
import { wasp, WASP_API_TYPE_MODULES } from './wasp.js';
import { inngest } from './inngest.js';
import { jobCollection } from './job-collection.js';
import { kafkajs } from './kafkajs.js';
import { pgBoss } from './pg-boss.js';
import { probot } from './probot.js';
import { pubsub } from './pubsub.js';
import { redisPubsub } from './redis-pubsub.js';
import { pgNotify } from './pg-notify.js';
import { sqsConsumer } from './sqs-consumer.js';
import { temporal } from './temporal.js';
import { triggerDev } from './trigger-dev.js';
import { triggerDevRedisWorker } from './trigger-dev-redis-worker.js';
import { upstashWorkflow } from './upstash-workflow.js';
import { vendure } from './vendure.js';
import { vercelQueue } from './vercel-queue.js';
import { quirrel } from './quirrel.js';
import { natsStreaming } from './nats-streaming.js';
import { zeebe } from './zeebe.js';
import { slackBolt } from './slack-bolt.js';
import { telegraf } from './telegraf.js';
import { fedify } from './fedify.js';
import { matrixAppserviceBridge } from './matrix-appservice-bridge.js';

/**
 * The brokers and job runners whose registrations the model reads, one file each. A call is
 * matched against them in this order and the first that finds a handler names it: the libraries
 * whose calls the module or the options show come before those known by the receiver's name
 * (bee-queue's `process` before Bull's).
 */
export const DELIVERY_LIBRARIES = [
  bullmq,
  sqsConsumer,
  triggerDev,
  triggerDevRedisWorker,
  inngest,
  pgBoss,
  agenda,
  beeQueue,
  azureServiceBus,
  ffcMessaging,
  graphileWorker,
  wasp,
  temporal,
  vendure,
  cadenceMq,
  zeebe,
  jobCollection,
  kafkajs,
  centralServicesStream,
  bull,
  amqplib,
  natsStreaming,
  pubsub,
  redisPubsub,
  pgNotify,
  vercelQueue,
  quirrel,
  upstashWorkflow,
  betterAuthStripe,
  probot,
  slackBolt,
  telegraf,
  fedify,
  matrixAppserviceBridge,
  firebaseFunctions,
  firebaseWebhooks,
] as const;

/**
 * Modules every type of which is a framework's HTTP handler type: a function declared with one is a
 * route handler the framework mounts (Wasp's APIs).
 */
export const ROUTE_TYPE_MODULES: readonly string[] = [...WASP_API_TYPE_MODULES];

/** The broker names of the libraries. */
export type LibraryBroker = (typeof DELIVERY_LIBRARIES)[number]['broker'];
