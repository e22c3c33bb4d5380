import { describeIssues, issuesFromZod } from '../../errors.js';
import type { ModelToolCall } from '../../models/types.js';
import type { AnyTool } from '../../tools/types.js';
import { GIVE_UP, type ToolCatalog } from './toolCatalog.js';

/** A model's tool call after checking: runnable, a request to stop, or malformed (with what to tell the model). */
export type CheckedCall =
  | { kind: 'call'; call: ModelToolCall; tool: AnyTool; args: Record<string, unknown>; parsed: unknown }
  | { kind: 'give_up'; call: ModelToolCall; reason: string }
  | { kind: 'malformed'; call: ModelToolCall; problem: 'bad_json' | 'unknown_tool' | 'schema_mismatch'; error: string };

/** Checks one call: JSON arguments, a known tool, and arguments its input schema accepts. */
export function checkCall(call: ModelToolCall, catalog: ToolCatalog): CheckedCall {
  let parsed: unknown;
  try {
    parsed = call.argumentsText.trim() === '' ? {} : JSON.parse(call.argumentsText);
  } catch (error) {
    return malformed(call, 'bad_json', `the arguments are not valid JSON (${(error as Error).message}); send a JSON object`);
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
    return malformed(call, 'bad_json', 'the arguments must be a JSON object');
  }
  const args = parsed as Record<string, unknown>;
  if (call.name === GIVE_UP) return { kind: 'give_up', call, reason: typeof args.reason === 'string' ? args.reason : 'no reason given' };
  const tool = catalog.byWireName.get(call.name);
  if (!tool) {
    const known = [...catalog.byWireName.keys(), GIVE_UP].join(', ');
    return malformed(call, 'unknown_tool', `there is no tool "${call.name}"; the tools are: ${known}`);
  }
  const result = tool.input.safeParse(args);
  if (!result.success) {
    const issues = issuesFromZod(result.error.issues, []);
    return malformed(call, 'schema_mismatch', `the arguments do not match the input schema of ${call.name}:\n${describeIssues(issues)}`);
  }
  return { kind: 'call', call, tool, args, parsed: result.data };
}

function malformed(call: ModelToolCall, problem: Extract<CheckedCall, { kind: 'malformed' }>['problem'], error: string): CheckedCall {
  return { kind: 'malformed', call, problem, error };
}
