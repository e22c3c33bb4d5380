import { z } from 'zod';
import { AcceptanceCheckSchema, type AcceptanceCheck } from '../../../contract/index.js';
import { addUsage, NO_USAGE, type ModelMessage, type ModelProvider, type ModelUsage } from '../../models/types.js';

/**
 * Check types the model may propose. `command_exit` runs a command on the host, so it is
 * left to the person reviewing (they may add one when editing the proposal).
 */
export const PROPOSABLE_CHECK_TYPES = ['file_exists', 'file_contains', 'file_sha256', 'json_path', 'http_status'] as const;

const PROPOSE_TOOL = 'propose_checks';

const INTENT_PROMPT = [
  'You turn a task goal into acceptance checks: external signals that prove the goal was reached.',
  `Call ${PROPOSE_TOOL} once with 1 to 10 checks. Check types (paths are relative to the task workspace):`,
  '- {"type":"file_exists","path":"out.txt"} (add "exists":false for a file that must be absent)',
  '- {"type":"file_contains","path":"out.txt","text":"literal"} or with "pattern":"regular expression"',
  '- {"type":"file_sha256","path":"out.bin","sha256":"<64 hex>"} only when the exact bytes are known',
  '- {"type":"json_path","file":"report.json","path":"$.count","equals":3} (or "url" instead of "file"; "exists":true)',
  '- {"type":"http_status","url":"http://host/path","status":200}',
  'Give each check a short "name". Check only what the goal states; do not guess contents it does not give.',
].join('\n');

const ProposalSchema = z.object({
  checks: z
    .array(AcceptanceCheckSchema)
    .min(1)
    .max(10)
    .refine((checks) => checks.every((c) => (PROPOSABLE_CHECK_TYPES as readonly string[]).includes(c.type)), {
      message: `only these check types may be proposed: ${PROPOSABLE_CHECK_TYPES.join(', ')}`,
    }),
});

/** What one proposal round produced. */
export type IntentOutcome =
  | { ok: true; checks: AcceptanceCheck[]; usage: ModelUsage; calls: number }
  | { ok: false; reason: string; usage: ModelUsage; calls: number };

/**
 * Asks the model for acceptance checks for a goal: one call, and one more when the first
 * proposal is invalid (the model is told what was wrong); a second bad proposal is a failure.
 */
export async function proposeChecks(provider: ModelProvider, goal: string, signal: AbortSignal): Promise<IntentOutcome> {
  const messages: ModelMessage[] = [{ role: 'user', content: [{ type: 'text', text: `Goal:\n${goal}` }] }];
  let usage = NO_USAGE;
  let lastProblem = '';
  for (let call = 1; call <= 2; call++) {
    const response = await provider.complete(
      { system: INTENT_PROMPT, tools: [PROPOSE_TOOL_DEFINITION], messages, maxOutputTokens: 2000 },
      { signal },
    );
    usage = addUsage(usage, response.usage);
    const toolCall = response.toolCalls.find((c) => c.name === PROPOSE_TOOL);
    const parsed = toolCall
      ? parseProposal(toolCall.argumentsText)
      : { ok: false as const, problem: `no ${PROPOSE_TOOL} call in the answer` };
    if (parsed.ok) return { ok: true, checks: parsed.checks, usage, calls: call };
    lastProblem = parsed.problem;
    messages.push({ role: 'assistant', text: response.text, toolCalls: response.toolCalls });
    if (toolCall)
      messages.push({
        role: 'tool',
        callId: toolCall.id,
        name: PROPOSE_TOOL,
        content: `ERROR: ${parsed.problem}. Call ${PROPOSE_TOOL} again, corrected.`,
        isError: true,
      });
    else messages.push({ role: 'user', content: [{ type: 'text', text: `ERROR: ${parsed.problem}. Call ${PROPOSE_TOOL}.` }] });
  }
  return { ok: false, reason: `the model proposed no valid acceptance checks twice (last: ${lastProblem})`, usage, calls: 2 };
}

function parseProposal(argumentsText: string): { ok: true; checks: AcceptanceCheck[] } | { ok: false; problem: string } {
  let raw: unknown;
  try {
    raw = JSON.parse(argumentsText);
  } catch (error) {
    return { ok: false, problem: `the arguments are not JSON (${(error as Error).message})` };
  }
  const parsed = ProposalSchema.safeParse(raw);
  if (parsed.success) return { ok: true, checks: parsed.data.checks };
  const issues = parsed.error.issues.slice(0, 5).map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`);
  return { ok: false, problem: `invalid checks: ${issues.join('; ')}` };
}

const PROPOSE_TOOL_DEFINITION = {
  name: PROPOSE_TOOL,
  description: 'Propose the acceptance checks that will decide whether the goal was reached.',
  inputSchema: {
    type: 'object',
    properties: {
      checks: {
        type: 'array',
        minItems: 1,
        maxItems: 10,
        items: {
          type: 'object',
          properties: { type: { type: 'string', enum: [...PROPOSABLE_CHECK_TYPES] }, name: { type: 'string' } },
          required: ['type'],
          additionalProperties: true,
        },
      },
    },
    required: ['checks'],
    additionalProperties: false,
  },
};
