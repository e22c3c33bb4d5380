import { repeatedPrefixTokens } from '../context/prefixCache.js';
import { estimateTokens } from '../context/tokenEstimate.js';
import { ModelError, type ModelCallOptions, type ModelProvider, type ModelRequest, type ModelResponse } from './types.js';

/** One scripted answer: tool calls (by wire name, arguments as an object or raw text) or a final text. */
export interface ScriptedTurn {
  text?: string;
  calls?: { name: string; arguments: Record<string, unknown> | string }[];
}

/**
 * A model that answers from a script, for evaluations and tests without a model service. Usage
 * is estimated from the real request (~4 characters a token), and the part repeating the
 * previous request counts as cached input, as a provider's prompt cache would serve it.
 */
export class ScriptedProvider implements ModelProvider {
  readonly kind = 'scripted';
  calls = 0;
  private previous: ModelRequest | undefined;

  constructor(
    private readonly turns: readonly ScriptedTurn[],
    readonly model = 'scripted',
  ) {}

  async complete(request: ModelRequest, { signal }: ModelCallOptions): Promise<ModelResponse> {
    if (signal.aborted) throw new ModelError('cancelled', 'scripted: the call was cancelled', false);
    const turn = this.turns[this.calls];
    if (!turn) throw new ModelError('bad_request', `scripted: the script has no answer for model call ${this.calls + 1}`, false);
    this.calls++;
    const toolCalls = (turn.calls ?? []).map((c, i) => ({
      id: `call_${this.calls}_${i + 1}`,
      name: c.name,
      argumentsText: typeof c.arguments === 'string' ? c.arguments : JSON.stringify(c.arguments),
    }));
    const inputTokens = estimateTokens(request.system) + estimateTokens(request.tools) + estimateTokens(request.messages);
    const cachedInputTokens = Math.min(inputTokens, repeatedPrefixTokens(this.previous, request));
    this.previous = request;
    return {
      text: turn.text ?? '',
      toolCalls,
      usage: { inputTokens, outputTokens: estimateTokens(turn.text ?? '') + estimateTokens(toolCalls), cachedInputTokens },
      stopReason: toolCalls.length > 0 ? 'tool_calls' : 'end',
      model: this.model,
    };
  }
}
