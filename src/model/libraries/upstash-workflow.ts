import type { DeliveryLibrary } from './library.js';

/**
 * Upstash Workflow: `serve(routeFunction, options?)` makes a workflow endpoint
 * (`export const { POST } = serve(async (context) => …)`) that QStash calls once per step of a
 * run and again when a call fails, so the route function runs many times per run: "only code
 * inside a step runs exactly once" (its `context.run` steps are recorded, durable-steps.ts), and
 * a step can itself be retried (https://upstash.com/docs/workflow/basics/serve,
 * https://upstash.com/docs/workflow/basics/best-practices/overview). `serve` comes from the
 * adapter of the framework (`@upstash/workflow/nextjs`, `/hono`, `/express`, …).
 */
export const upstashWorkflow: DeliveryLibrary<'upstash-workflow'> = {
  broker: 'upstash-workflow',
  modules: [
    '@upstash/workflow',
    '@upstash/workflow/nextjs',
    '@upstash/workflow/express',
    '@upstash/workflow/hono',
    '@upstash/workflow/h3',
    '@upstash/workflow/svelte',
    '@upstash/workflow/solidjs',
    '@upstash/workflow/astro',
    '@upstash/workflow/cloudflare',
    '@upstash/workflow/tanstack',
  ],
  registrations: [{ call: { function: ['serve', 'createWorkflow'] }, handler: { argument: 0 } }],
};
