/** Array methods that call their callback synchronously, once per element. */
export const ITERATION_METHODS = new Set([
  'forEach',
  'map',
  'flatMap',
  'filter',
  'some',
  'every',
  'find',
  'findIndex',
  'reduce',
  'reduceRight',
]);

/** The parameter of an iteration method's callback that holds each element: the second for `reduce`, after the accumulator. */
export function elementParameterIndex(method: string): number | undefined {
  if (!ITERATION_METHODS.has(method)) return undefined;
  return method === 'reduce' || method === 'reduceRight' ? 1 : 0;
}
