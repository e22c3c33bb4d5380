import type { z } from 'zod';
import type {
  ApprovalPreview,
  Availability,
  RiskClass,
  Tier,
  ToolDescriptor,
  ToolProgress,
  UserAnswer,
  UserQuestion,
} from '../../contract/index.js';
import type { ApprovedCall } from '../policy/effects/approvedCall.js';

/** What a tool sees while it runs one call. */
export interface ToolContext {
  taskId: string;
  stepId: string;
  /** Stable across re-runs of the same step; send it downstream so the effect happens once. */
  idempotencyKey: string;
  /** Absolute path of the task workspace; file tools never leave it. */
  workspace: string;
  /** Aborted when the task is paused or cancelled. */
  signal: AbortSignal;
  /** Reports progress of a long call (traced as `tool.progress`, shown live on the step). */
  progress?(p: ToolProgress): void;
  /**
   * Asks the user a question mid-call (e.g. an MCP elicitation): the task waits in `waiting_user`
   * until `tasks.respond` answers. Rejects when the task is cancelled or paused meanwhile.
   */
  askUser?(question: Pick<UserQuestion, 'source' | 'message' | 'requestedSchema'>): Promise<UserAnswer>;
  /** The human approval this call runs under, if it was asked for (the browser lets exactly its effects through). */
  approved?: ApprovedCall;
}

/** How one concrete call is classified for the policy gate. */
export interface CallClassification {
  risks: RiskClass[];
  /** What `Tool(pattern)` rules match against: a workspace path, a URL, … ('' when none). */
  subject: string;
  readOnly: boolean;
  idempotent: boolean;
  /** True when every path the call touches is inside the task workspace. */
  insideWorkspace: boolean;
  /** Host (with port) an external_http call reaches. */
  host?: string;
  preview: ApprovalPreview;
}

/** A tool: schema-validated input, a tier, a risk class, and an execute function. */
export interface Tool<I = unknown> {
  name: string;
  title: string;
  description: string;
  tier: Tier;
  /**
   * Capabilities it provides, shared across tiers (`web.read`, `file.write`: see CAPABILITIES);
   * the router offers the best available tier per capability and falls back down the tiers.
   */
  capabilities: string[];
  /** The capabilities one call exercises (an HTTP POST is no `web.read`); default: all of them. */
  callCapabilities?(args: I): readonly string[];
  /** Default risk class (the most severe one a call may have). */
  risk: RiskClass;
  readOnly: boolean;
  idempotent: boolean;
  input: z.ZodType<I>;
  /** Classifies one validated call; the gate decides on the result. */
  classify(args: I, ctx: Pick<ToolContext, 'workspace'>): CallClassification;
  availability(): Availability;
  execute(args: I, ctx: ToolContext): Promise<unknown>;
  /**
   * Clears what a call killed mid-way may have left behind (e.g. a temp file), before its step is
   * re-run or settled after a restart. Must be safe to call when nothing was left.
   */
  cleanUpInterrupted?(args: I, ctx: Pick<ToolContext, 'workspace'>): Promise<void>;
}

/** A tool failure. `retryable` lets the router fall back or the engine retry. */
export class ToolError extends Error {
  constructor(
    message: string,
    readonly retryable = false,
    readonly code = 'tool_error',
    /**
     * The call was delivered but its answer was lost (the server died or hung mid-call): the effect
     * may have happened, so only a read-only or idempotent call may run again or elsewhere.
     */
    readonly effectUnknown = false,
  ) {
    super(message);
    this.name = 'ToolError';
  }
}

/** Any tool, whatever its input type. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyTool = Tool<any>;

/** A tool's public descriptor (the JSON schema comes from its zod input). */
export type DescribeTool = (tool: AnyTool) => ToolDescriptor;
