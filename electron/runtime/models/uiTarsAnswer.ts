import type { Size } from '../gui/coordinates.js';
import { parseUiTarsTurn } from '../gui/uiTars.js';
import type { ModelResponse } from './types.js';

/** The runtime tool UI-TARS actions are calls of. */
export const UI_TARS_COMPUTER_TOOL = 'computer';

let counter = 0;

/**
 * A UI-TARS answer as a neutral response: its `Action:` line becomes a call of the `computer`
 * tool (points converted to the model space), `finished(content=…)` the final answer, and a line
 * that cannot be parsed a call whose arguments the planner rejects back to the model.
 */
export function fromUiTarsAnswer(response: ModelResponse, size: Size): ModelResponse {
  if (response.toolCalls.length > 0) return response;
  const turn = parseUiTarsTurn(response.text, size);
  if (turn.kind === 'none') return response;
  if (turn.kind === 'finished') return { ...response, text: turn.answer, stopReason: 'end' };
  const id = `uitars_${Date.now().toString(36)}_${++counter}`;
  const argumentsText = turn.kind === 'action' ? JSON.stringify(turn.action) : JSON.stringify({ uiTars: turn.text, error: turn.error });
  return { ...response, toolCalls: [{ id, name: UI_TARS_COMPUTER_TOOL, argumentsText }], stopReason: 'tool_calls' };
}
