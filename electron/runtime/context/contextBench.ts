import { buildCatalog } from '../planning/llm/toolCatalog.js';
import { DEFAULT_SYSTEM_PROMPT } from '../planning/llm/llmPlanner.js';
import { builtinTools } from '../tools/builtin/index.js';
import { buildContext, buildNaiveContext, DEFAULT_CONTEXT, type ContextOptions, type StablePrefix } from './contextBuilder.js';
import type { Exchange } from './exchange.js';
import { repeatedPrefixTokens } from './prefixCache.js';
import type { ModelRequest } from '../models/types.js';

/** Figures of `agent-desk bench context`. */
export interface ContextBenchFigures {
  steps: number;
  promptTokensTotal: number;
  naivePromptTokensTotal: number;
  ratio: number;
  /** Share of prompt tokens repeating the previous request's prefix byte for byte (servable by prompt caches). */
  stablePrefixShare: number;
  /** Share of prompt tokens that are the fixed task prefix alone (system, tools, AGENTS.md, memory, goal). */
  fixedPrefixShare: number;
  stablePrefixTokens: number;
  maxPromptTokens: number;
  window: number;
  compactionBlock: number;
  compactAfterTokens: number;
}

const PROJECT_CONTEXT = `# AGENTS.md — inventory workspace
- Data lives in data/*.json (one file per warehouse); reports go to reports/.
- Never delete files under data/; write new files instead of editing old ones.
- Quantities are integers; SKUs look like ABC-1234. Prices are in cents.
- A report is Markdown: a title, one table per warehouse (SKU | name | qty | value), then totals.
- Use fs.list before fs.read when unsure a file exists. Keep HTTP calls to the internal API.
- The internal API is http://127.0.0.1:8080: GET /items?page=N returns 50 items a page.
- When a page returns an empty list, you have read every page.`;

const MEMORY = `- 2026-11-20: the API paginates from page 1, not 0.
- 2026-11-22: warehouse "north" was renamed "north-2"; old reports use the old name.`;

/** One scripted step: page N of an item listing read over HTTP, a realistic ~1.6 KB JSON result. */
function scriptedExchange(n: number): Exchange {
  const items = Array.from({ length: 12 }, (_, i) => ({
    sku: `SKU-${String(n * 12 + i).padStart(5, '0')}`,
    name: `Item ${n}-${i} stainless fastener`,
    qty: (n * 7 + i * 3) % 97,
    priceCents: 100 + ((n * 13 + i) % 900),
  }));
  const result = JSON.stringify({ status: 200, headers: { 'content-type': 'application/json' }, body: { page: n + 1, items } });
  const args = JSON.stringify({ method: 'GET', url: `http://127.0.0.1:8080/items?page=${n + 1}` });
  return {
    text: '',
    calls: [{ id: `call_${n}`, name: 'http_request', argumentsText: args, tool: 'http.request', index: n, status: 'ok', result }],
  };
}

/**
 * Builds the context for every step of a scripted `steps`-step task and for the naive baseline
 * (the whole history resent each step), and sums their estimated prompt tokens.
 */
export function benchContext(steps = 200, options: ContextOptions = DEFAULT_CONTEXT): ContextBenchFigures {
  const prefix: StablePrefix = {
    systemPrompt: DEFAULT_SYSTEM_PROMPT,
    tools: buildCatalog(builtinTools()).definitions,
    projectContext: PROJECT_CONTEXT,
    memory: MEMORY,
    goal: 'Read every page of the inventory API and write reports/inventory.md with one table per warehouse and totals.',
  };
  const exchanges: Exchange[] = [];
  let total = 0;
  let naive = 0;
  let stable = 0;
  let max = 0;
  let stableTokens = 0;
  let repeated = 0;
  let previous: ModelRequest | undefined;
  for (let step = 0; step < steps; step++) {
    const built = buildContext(prefix, exchanges, [], options);
    total += built.totalTokens;
    stable += built.stablePrefixTokens;
    // The first request has nothing cached yet; its fixed prefix is what later ones reuse.
    repeated += previous ? repeatedPrefixTokens(previous, built.request) : 0;
    previous = built.request;
    stableTokens = built.stablePrefixTokens;
    max = Math.max(max, built.totalTokens);
    naive += buildNaiveContext(prefix, exchanges).totalTokens;
    exchanges.push(scriptedExchange(step));
  }
  return {
    steps,
    promptTokensTotal: total,
    naivePromptTokensTotal: naive,
    ratio: round(total / naive),
    stablePrefixShare: round(repeated / total),
    fixedPrefixShare: round(stable / total),
    stablePrefixTokens: stableTokens,
    maxPromptTokens: max,
    window: options.windowSize,
    compactionBlock: options.compactionBlock,
    compactAfterTokens: options.compactAfterTokens,
  };
}

const round = (x: number): number => Math.round(x * 1000) / 1000;
