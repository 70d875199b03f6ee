import rule from '../../rules/no-unbounded-dedupe-cache.js';
import { syntaxRuleTester } from '../rule-tester.js';

syntaxRuleTester().run('no-unbounded-dedupe-cache', rule, {
  valid: [
    // The seed's deduped(): the set is a parameter default, owned by the caller.
    `
export function deduped(api, seen = new Map()) {
  return (message) => {
    if (seen.has(message.id)) return { ...seen.get(message.id), skipped: true }
    const result = api.charge({ amount: message.amount, key: \`msg:\${message.id}\` })
    seen.set(message.id, result)
    return result
  }
}
`,
    // Bounded by a size check that evicts the oldest entry.
    `
const processed = new Set();
export function handle(update) {
  if (processed.has(update.update_id)) return;
  processed.add(update.update_id);
  if (processed.size > 1000) processed.delete(processed.values().next().value);
}
`,
    // A TTL sweep: delete in a timer.
    `
const seen = new Map();
setInterval(() => { for (const [id, at] of seen) if (Date.now() - at > 60_000) seen.delete(id); }, 10_000);
export function handle(msg) { if (seen.has(msg.id)) return; seen.set(msg.id, Date.now()); }
`,
    // clear() on a timer.
    'const seen = new Set(); setInterval(() => seen.clear(), 60_000); export function handle(m) { if (seen.has(m.id)) return; seen.add(m.id); }',
    // Each id deleted later (a setTimeout per id).
    'const processing = new Set(); export function handle(m) { if (processing.has(m.messageId)) return; processing.add(m.messageId); setTimeout(() => processing.delete(m.messageId), 30_000); }',
    // An LRU is not a Map.
    "import { LRUCache } from 'lru-cache'; const seen = new LRUCache({ max: 10_000 }); export function handle(m) { if (seen.has(m.id)) return; seen.set(m.id, true); }",
    // Reset by reassignment.
    'let seen = new Set(); export function rotate() { seen = new Set(); } export function handle(m) { if (seen.has(m.id)) return; seen.add(m.id); }',
    // Handed to other code, which may bound it; or exported.
    'const seen = new Set(); startSweeper(seen); export function handle(m) { if (seen.has(m.id)) return; seen.add(m.id); }',
    'export const seen = new Set(); export function handle(m) { if (seen.has(m.id)) return; seen.add(m.id); }',
    // A memo cache keyed by a name, not a seen-set of deliveries.
    'const templates = new Map(); export function template(name) { if (templates.has(name)) return templates.get(name); const t = compile(name); templates.set(name, t); return t; }',
    // A state store keyed by chat id, read with get(): not a seen-set.
    'const userDrafts = new Map(); export function onPhoto(msg) { const draft = userDrafts.get(msg.chat.id) || { images: [] }; draft.images.push(msg.photo); userDrafts.set(msg.chat.id, draft); }',
    // One cache object per type id, built once and read back: a memo, not a seen-set.
    'const fileCaches = new Map(); export async function fileCache(typeId) { if (fileCaches.has(typeId)) return fileCaches.get(typeId); const cache = await open(typeId); fileCaches.set(typeId, cache); return cache; }',
    // Per-id state created on first use and returned.
    'const tracker = new Map(); export function stateOf(canvasId) { if (!tracker.has(canvasId)) tracker.set(canvasId, { at: 0 }); return tracker.get(canvasId); }',
    // A one-off script ends with its run, and the set with it.
    {
      code: 'const seen = new Set(); export function handle(m) { if (seen.has(m.id)) return; seen.add(m.id); }',
      filename: 'scripts/backfill-orders.ts',
    },
    // Never checked before adding: a registry, not a dedupe.
    'const ids = new Set(); export function register(m) { ids.add(m.id); }',
    // A local set inside the handler lives for one call.
    'export function handle(batch) { const seen = new Set(); for (const m of batch) { if (seen.has(m.id)) continue; seen.add(m.id); } }',
    // A user-defined Map class.
    'class Map { has() {} set() {} } const seen = new Map(); export function handle(m) { if (seen.has(m.id)) return; seen.set(m.id, 1); }',
  ],
  invalid: [
    {
      // The seed's seen set moved to module level.
      code: `
const seen = new Map();

export function deduped(api) {
  return (message) => {
    if (seen.has(message.id)) return { ...seen.get(message.id), skipped: true };
    const result = api.charge({ amount: message.amount });
    seen.set(message.id, result);
    return result;
  };
}
`,
      errors: [{ messageId: 'unboundedSeenSet', line: 2, column: 7 }],
      output: null,
    },
    {
      // A Set of update ids, and a dedupe-named set keyed by a template.
      code: `
const processedUpdates = new Set();
const deliveries = new Set();
export default async function handler(req, res) {
  const updateId = req.body.update_id;
  if (processedUpdates.has(updateId)) return res.end();
  processedUpdates.add(updateId);
  if (deliveries.has(\`gh:\${req.headers['x-github-delivery']}\`)) return;
  deliveries.add(\`gh:\${req.headers['x-github-delivery']}\`);
}
`,
      errors: [
        { messageId: 'unboundedSeenSet', line: 2, column: 7 },
        { messageId: 'unboundedSeenSet', line: 3, column: 7 },
      ],
      output: null,
    },
  ],
});
