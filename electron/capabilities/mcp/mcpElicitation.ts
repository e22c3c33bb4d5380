import { ErrorCode, McpError, type ElicitRequest, type ElicitResult } from '@modelcontextprotocol/sdk/types.js';
import type { ToolContext } from '../../runtime/tools/types.js';
import type { McpCallTimer } from './mcpCallTimer.js';

/** A tool call in flight on a connection, able to put a question to its task's user. */
export interface AskingCall {
  taskId: string;
  askUser: NonNullable<ToolContext['askUser']>;
  timer: McpCallTimer;
}

/**
 * Answers a server's `elicitation/create` by asking the user of the task whose call is in flight
 * (the request itself does not say which call it belongs to). With no such call, or calls of
 * several tasks at once, it is refused rather than shown to the wrong person. URL-mode requests
 * are declined: Agent Desk advertises form elicitation only.
 */
export async function answerElicitation(
  server: string,
  calls: readonly AskingCall[],
  params: ElicitRequest['params'],
): Promise<ElicitResult> {
  if (params.mode === 'url') return { action: 'decline' };
  const tasks = new Set(calls.map((c) => c.taskId));
  if (tasks.size === 0) throw new McpError(ErrorCode.InvalidRequest, 'no Agent Desk task is calling a tool on this server: nobody to ask');
  if (tasks.size > 1) {
    throw new McpError(ErrorCode.InvalidRequest, 'tool calls of several Agent Desk tasks are in flight: cannot tell whose user to ask');
  }
  const call = calls[calls.length - 1]!;
  for (const c of calls) c.timer.pause();
  try {
    const answer = await call.askUser({
      source: `MCP server "${server}"`,
      message: params.message,
      requestedSchema: params.requestedSchema,
    });
    return { action: answer.action, ...(answer.content && { content: answer.content }) };
  } finally {
    for (const c of calls) c.timer.resume();
  }
}
