/**
 * Function types of libraries whose callback's parameter is typed by the type's argument: a
 * function declared `const plugin: FastifyPluginCallback<Options> = function (fastify, opts, done)`
 * takes `opts` as an `Options` though it spells no annotation of its own. Fastify declares
 * `FastifyPluginCallback<Options>` as `(instance: FastifyInstance, opts: Options, done) => void` and
 * `FastifyPluginAsync<Options>` as `(instance, opts: Options) => Promise<void>` (fastify
 * `types/plugin.d.ts`).
 */
export const CALLBACK_PARAMETER_TYPES: ReadonlyMap<string, { parameter: number; typeArgument: number }> = new Map([
  ['FastifyPluginCallback', { parameter: 1, typeArgument: 0 }],
  ['FastifyPluginAsync', { parameter: 1, typeArgument: 0 }],
]);
