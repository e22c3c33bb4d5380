import type { ModelContentPart, ModelMessage, ModelRequest, ModelToolDefinition } from '../models/types.js';
import { compactExchanges } from './compaction.js';
import type { Exchange } from './exchange.js';
import { estimateTokens } from './tokenEstimate.js';

/** What stays the same for a whole task: the cacheable prefix. */
export interface StablePrefix {
  systemPrompt: string;
  tools: readonly ModelToolDefinition[];
  /** The workspace's AGENTS.md (or similar project context file), if any. */
  projectContext?: string;
  /** A memory snapshot taken when the task started. */
  memory?: string;
  goal: string;
}

/** Window and compaction limits. */
export interface ContextOptions {
  /** Exchanges always kept verbatim once compaction has started. */
  windowSize: number;
  /**
   * Exchanges compact in blocks of this many, so between compactions each request only appends
   * to the previous one and the provider's prompt cache serves everything before the newest step.
   */
  compactionBlock: number;
  /** Compaction starts when the verbatim history would exceed this many (estimated) tokens. */
  compactAfterTokens: number;
  /** Screenshots kept; older ones become a one-line note. */
  maxImages: number;
  /** A tool result in the window is clipped to this many characters. */
  resultCharLimit: number;
  summaryLines: number;
  resultPreviewChars: number;
}

/** Defaults tuned with `agent-desk bench context`. */
export const DEFAULT_CONTEXT: ContextOptions = {
  windowSize: 4,
  compactionBlock: 10,
  compactAfterTokens: 6000,
  maxImages: 2,
  resultCharLimit: 2000,
  summaryLines: 12,
  resultPreviewChars: 48,
};

/** A built request and what it is made of, for usage reports and the benchmark. */
export interface BuiltContext {
  request: ModelRequest;
  stablePrefixTokens: number;
  totalTokens: number;
  compactedExchanges: number;
}

/**
 * Builds one model request: the stable prefix (system prompt, sorted tools, AGENTS.md, memory,
 * goal) byte-identical across steps, then a compacted summary of older steps, a window of
 * recent exchanges, the last N images, and any scratch turns of this planning round.
 */
export function buildContext(
  prefix: StablePrefix,
  exchanges: readonly Exchange[],
  scratch: readonly ModelMessage[] = [],
  options: ContextOptions = DEFAULT_CONTEXT,
): BuiltContext {
  const system = systemText(prefix);
  const tools = [...prefix.tools].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const goal: ModelMessage = { role: 'user', content: [{ type: 'text', text: `Goal:\n${prefix.goal}` }] };
  const verbatimTokens = exchanges.reduce((n, e) => n + estimateTokens(renderExchange(e, options.resultCharLimit)), 0);
  const cut = verbatimTokens > options.compactAfterTokens ? compactedCount(exchanges.length, options) : 0;
  const summary = compactExchanges(exchanges.slice(0, cut), options);
  const messages: ModelMessage[] = [goal];
  if (summary) messages.push({ role: 'user', content: [{ type: 'text', text: summary }] });
  const window = exchanges.slice(cut).flatMap((e) => renderExchange(e, options.resultCharLimit));
  messages.push(...keepLastImages([...window, ...scratch], options.maxImages));
  const request: ModelRequest = { system, tools, messages, stableMessages: 1 };
  const stablePrefixTokens = estimateTokens(system) + estimateTokens(tools) + estimateTokens(goal);
  return {
    request,
    stablePrefixTokens,
    totalTokens: estimateTokens(system) + estimateTokens(tools) + estimateTokens(messages),
    compactedExchanges: cut,
  };
}

/** The whole history verbatim every step: the baseline the benchmark compares against. */
export function buildNaiveContext(prefix: StablePrefix, exchanges: readonly Exchange[]): BuiltContext {
  return buildContext(prefix, exchanges, [], {
    ...DEFAULT_CONTEXT,
    compactAfterTokens: Infinity,
    resultCharLimit: Infinity,
    maxImages: Infinity,
  });
}

/** How many of the oldest exchanges to compact: whole blocks, leaving at least `windowSize` verbatim. */
function compactedCount(total: number, options: ContextOptions): number {
  const block = Math.max(1, options.compactionBlock);
  return Math.max(0, Math.floor((total - options.windowSize) / block) * block);
}

function systemText(prefix: StablePrefix): string {
  const parts = [prefix.systemPrompt.trim()];
  if (prefix.projectContext?.trim()) parts.push(`# Project context (AGENTS.md)\n${prefix.projectContext.trim()}`);
  if (prefix.memory?.trim()) parts.push(`# Memory\n${prefix.memory.trim()}`);
  return parts.join('\n\n');
}

/** One exchange as an assistant turn with its tool calls, then one tool message per call. */
function renderExchange(exchange: Exchange, resultCharLimit: number): ModelMessage[] {
  const out: ModelMessage[] = [
    {
      role: 'assistant',
      text: exchange.text,
      toolCalls: exchange.calls.map((c) => ({ id: c.id, name: c.name, argumentsText: c.argumentsText })),
    },
  ];
  for (const call of exchange.calls) {
    const clipped =
      call.result.length > resultCharLimit
        ? `${call.result.slice(0, resultCharLimit)}\n… [clipped: ${call.result.length} chars in all]`
        : call.result;
    out.push({
      role: 'tool',
      callId: call.id,
      name: call.name,
      content: clipped,
      isError: call.status === 'error',
      ...(call.images?.length && { images: call.images }),
    });
  }
  return out;
}

/** Keeps the newest `max` images; older ones become a note so the model knows they existed. */
function keepLastImages(messages: ModelMessage[], max: number): ModelMessage[] {
  let seen = 0;
  const out = [...messages];
  for (let i = out.length - 1; i >= 0; i--) {
    const m = out[i]!;
    if (m.role !== 'tool' || !m.images?.length) continue;
    const keep: ModelContentPart[] = [];
    for (const image of [...m.images].reverse()) {
      if (seen < max) keep.unshift(image);
      seen++;
    }
    const dropped = m.images.length - keep.length;
    out[i] = { ...m, images: keep, content: dropped > 0 ? `${m.content}\n[${dropped} older screenshot(s) omitted]` : m.content };
  }
  return out;
}
