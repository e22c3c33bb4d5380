import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult, ToolAnnotations } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import type { MethodName, Scope } from '../../../contract/index.js';
import type { RuntimeHandle } from '../../../runtime/core/runtimeCore.js';

/** Who the MCP client acts as: the scopes of this serve session and a name for `decidedBy`. */
export interface McpServeIdentity {
  scopes: readonly Scope[];
  clientId: string;
}

interface ExposedTool {
  name: string;
  title: string;
  description: string;
  method: MethodName;
  input: z.ZodRawShape;
  annotations: ToolAnnotations;
}

const read: ToolAnnotations = { readOnlyHint: true, openWorldHint: false };

/** Agent Desk's RPC methods offered as MCP tools; each call goes through the same method table, scopes and validation. */
const EXPOSED: readonly ExposedTool[] = [
  {
    name: 'create_task',
    title: 'Create a task',
    description: 'Create an Agent Desk task from a YAML playbook and start it. Needs operator.write.',
    method: 'tasks.create',
    input: {
      playbook: z.string().min(1).describe('The playbook YAML'),
      inputs: z
        .record(z.string(), z.union([z.string(), z.number(), z.boolean()]))
        .optional()
        .describe('Playbook inputs'),
      title: z.string().max(200).optional(),
    },
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
  },
  {
    name: 'list_tasks',
    title: 'List tasks',
    description: 'Recent tasks, newest first, optionally by state.',
    method: 'tasks.list',
    input: { state: z.string().optional(), limit: z.number().int().min(1).max(500).optional() },
    annotations: read,
  },
  {
    name: 'get_task',
    title: 'Task status',
    description: 'A task with its state, reason and steps.',
    method: 'tasks.get',
    input: { taskId: z.string().min(1) },
    annotations: read,
  },
  {
    name: 'get_trace',
    title: 'Task trace',
    description: 'A page of the task trace (events after `afterSeq`).',
    method: 'traces.get',
    input: { taskId: z.string().min(1), afterSeq: z.number().int().min(0).optional(), limit: z.number().int().min(1).max(1000).optional() },
    annotations: read,
  },
  {
    name: 'list_approvals',
    title: 'List approvals',
    description: 'Approvals, pending first, with what each would do.',
    method: 'approvals.list',
    input: { status: z.enum(['pending', 'approved', 'denied', 'cancelled']).optional(), taskId: z.string().optional() },
    annotations: read,
  },
  {
    name: 'decide_approval',
    title: 'Decide an approval',
    description: 'Approve or deny a pending approval. Needs the operator.approvals scope.',
    method: 'approvals.decide',
    input: {
      approvalId: z.string().min(1),
      decision: z.enum(['approve', 'deny']),
      reason: z.string().max(2000).optional(),
    },
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  },
];

/** A fresh MCP server (one per client connection) exposing Agent Desk's task and approval methods. */
export function createAgentDeskMcpServer(rt: RuntimeHandle, identity: McpServeIdentity): McpServer {
  const server = new McpServer({ name: 'agent-desk', version: rt.version }, { capabilities: { tools: {} } });
  for (const tool of EXPOSED) {
    server.registerTool(
      tool.name,
      { title: tool.title, description: tool.description, inputSchema: tool.input, annotations: tool.annotations },
      async (args: Record<string, unknown>) => callMethod(rt, identity, tool.method, paramsFor(tool.method, args)),
    );
  }
  return server;
}

/** MCP arguments → RPC params (only `create_task` differs in shape). */
function paramsFor(method: MethodName, args: Record<string, unknown>): Record<string, unknown> {
  if (method !== 'tasks.create') return args;
  const { playbook, ...rest } = args;
  return { ...rest, playbook: { source: playbook } };
}

let nextId = 0;

async function callMethod(rt: RuntimeHandle, identity: McpServeIdentity, method: MethodName, params: unknown): Promise<CallToolResult> {
  const response = await rt.dispatcher.dispatch(
    { id: `mcp-${++nextId}`, method, params },
    { scopes: identity.scopes, clientId: identity.clientId },
  );
  if ('error' in response && response.error) {
    const { code, message } = response.error;
    return { isError: true, content: [{ type: 'text', text: `${code}: ${message}` }], structuredContent: { error: response.error } };
  }
  const result = (response as { result: unknown }).result;
  return { content: [{ type: 'text', text: JSON.stringify(result, null, 2) }], structuredContent: { result } };
}
