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

/** Awaits `promise` and returns the AgentDeskError it rejects with (anything else fails the test). */
export async function rejected(promise: Promise<unknown>): Promise<AgentDeskError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof AgentDeskError) return error;
    throw error;
  }
  throw new Error('expected an AgentDeskError');
}
