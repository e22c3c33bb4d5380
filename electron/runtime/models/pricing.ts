import type { z } from 'zod';
import type { ModelPriceSchema } from '../../contract/index.js';
import type { ModelUsage } from './types.js';

/** USD per million tokens for one model (the config's price table has the same shape). */
export type ModelPrice = z.infer<typeof ModelPriceSchema>;

/** Prices by model name; a `*` entry is the fallback. */
export type PriceTable = Readonly<Record<string, ModelPrice>>;

/** The price of a model: exact name, then the longest matching `prefix*` entry, then `*`. */
export function priceOf(table: PriceTable, model: string): ModelPrice | undefined {
  if (table[model]) return table[model];
  const prefixes = Object.keys(table)
    .filter((key) => key.endsWith('*') && model.startsWith(key.slice(0, -1)))
    .sort((a, b) => b.length - a.length);
  return prefixes.length > 0 ? table[prefixes[0]!] : undefined;
}

/** Cost in USD of one call's usage (0 when the model has no price). */
export function costOf(table: PriceTable, model: string, usage: ModelUsage): number {
  const price = priceOf(table, model);
  if (!price) return 0;
  const cached = Math.min(usage.cachedInputTokens, usage.inputTokens);
  const fresh = usage.inputTokens - cached;
  const cachedPrice = price.cachedInputPerMTok ?? price.inputPerMTok;
  return (fresh * price.inputPerMTok + cached * cachedPrice + usage.outputTokens * price.outputPerMTok) / 1_000_000;
}
