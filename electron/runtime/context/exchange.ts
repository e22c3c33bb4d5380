import type { ModelContentPart } from '../models/types.js';

/** One tool call of an exchange and what came of it. */
export interface ExchangeCall {
  /** The call id the model gave (echoed back with the result). */
  id: string;
  /** The wire-safe tool name the model used. */
  name: string;
  argumentsText: string;
  /** The runtime tool name (`fs.read`), for summaries. */
  tool: string;
  /** Plan index of the step that ran it, when one did. */
  index?: number;
  status: 'ok' | 'error' | 'pending';
  /** The result as the model will read it (JSON or text). */
  result: string;
  images?: ModelContentPart[];
}

/** One model turn that asked for tools, with their results: the unit the context window counts. */
export interface Exchange {
  text: string;
  calls: ExchangeCall[];
  /** Messages the user sent the task that this turn answers, rendered as user turns before it. */
  userMessages?: string[];
}
