import type { ModelContentPart, ModelMessage, ModelRequest, ModelToolDefinition } from '../models/types.js';
import { Conversation } from './conversation.js';
import type { Exchange } from './exchange.js';
export { userTurn } from './renderExchange.js';
import { estimateTokens } from './tokenEstimate.js';

/** What stays the same for a whole task: the cacheable prefix. */
export interface StablePrefix {
  systemPrompt: string;
  tools: readonly ModelToolDefinition[];
  /** The workspace's AGENTS.md (or similar project context file), if any. */
  projectContext?: string;
  /** A memory snapshot taken when the task started. */
  memory?: string;
  /** The skills offered: names and descriptions (bodies are read on demand). */
  skills?: string;
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
 * Builds one model request: the stable prefix (system prompt, sorted tools, AGENTS.md, skills,
 * memory, goal) byte-identical across steps, then a compacted summary of older steps, a window of
 * recent exchanges, the last N images, and any scratch turns of this planning round.
 * Given a `Conversation` (as the planner keeps one), the work is O(window), not O(history).
 */
export function buildContext(
  prefix: StablePrefix,
  exchanges: readonly Exchange[] | Conversation,
  scratch: readonly ModelMessage[] = [],
  options: ContextOptions = DEFAULT_CONTEXT,
): BuiltContext {
  const conversation = exchanges instanceof Conversation ? exchanges : new Conversation(exchanges, options.resultCharLimit);
  const fixed = fixedPartsOf(prefix);
  const verbatimTokens = conversation.verbatimTokens(options.resultCharLimit);
  const cut = verbatimTokens > options.compactAfterTokens ? compactedCount(conversation.length, options) : 0;
  const summary = conversation.summary(cut, options);
  const messages: ModelMessage[] = [fixed.goal];
  if (summary) messages.push({ role: 'user', content: [{ type: 'text', text: summary }] });
  const window = conversation.messagesFrom(cut, options.resultCharLimit);
  messages.push(...keepLastImages([...window, ...scratch], options.maxImages));
  const request: ModelRequest = { system: fixed.system, tools: [...fixed.tools], messages, stableMessages: 1 };
  let total: number | undefined;
  return {
    request,
    stablePrefixTokens: fixed.tokens,
    // Only reports and the benchmark read it: the model path never pays for estimating the window.
    get totalTokens() {
      return (total ??= fixed.systemAndToolTokens + estimateTokens(messages));
    },
    compactedExchanges: cut,
  };
}

/** The parts of a request fixed by its prefix, worked out once per prefix object. */
interface FixedParts {
  system: string;
  tools: ModelToolDefinition[];
  goal: ModelMessage;
  systemAndToolTokens: number;
  tokens: number;
}

const fixedParts = new WeakMap<StablePrefix, FixedParts>();

function fixedPartsOf(prefix: StablePrefix): FixedParts {
  let parts = fixedParts.get(prefix);
  if (parts === undefined) {
    const system = systemText(prefix);
    const tools = [...prefix.tools].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    const goal: ModelMessage = { role: 'user', content: [{ type: 'text', text: `Goal:\n${prefix.goal}` }] };
    const systemAndToolTokens = estimateTokens(system) + estimateTokens(tools);
    parts = { system, tools, goal, systemAndToolTokens, tokens: systemAndToolTokens + estimateTokens(goal) };
    fixedParts.set(prefix, parts);
  }
  return parts;
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
  if (prefix.skills?.trim()) parts.push(`# Skills\n${prefix.skills.trim()}`);
  if (prefix.memory?.trim()) parts.push(`# Memory\n${prefix.memory.trim()}`);
  return parts.join('\n\n');
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
