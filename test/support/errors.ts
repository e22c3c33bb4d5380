import { AgentDeskError } from '../../electron/runtime/errors.js';

/** Runs `fn` and returns the AgentDeskError it throws (anything else fails the test). */
export function thrown(fn: () => unknown): AgentDeskError {
  try {
    fn();
  } catch (error) {
    if (error instanceof AgentDeskError) return error;
    throw error;
  }
  throw new Error('expected an AgentDeskError');
}
