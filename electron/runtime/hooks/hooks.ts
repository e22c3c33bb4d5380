import {
  DEFAULT_HOOK_TIMEOUT_S,
  HookEventSchema,
  type Approval,
  type HookCommand,
  type HookEvent,
  type HooksConfig,
  type Step,
  type Task,
  type TraceEventType,
} from '../../contract/index.js';
import type { Clock } from '../clock.js';
import { isoAt } from '../clock.js';
import type { Redactor } from '../trace/redactor.js';
import type { Repos } from '../store/store.js';
import { hookEnv, hookInput } from './hookInput.js';
import { compileToolMatcher } from './matcher.js';
import type { HookProcessResult, HookProcessRunner } from './ports.js';
import { combineVerdicts, readVerdict, type HookEffect, type HookVerdict } from './verdict.js';

/** How much of a hook's stdout and stderr the trace keeps. */
const TRACE_OUTPUT_CHARS = 4000;

/** What hooks need from the runtime. */
export interface HooksDeps {
  runner: HookProcessRunner;
  redactor: Redactor;
  clock: Clock;
  /** Appends a trace event, in the commit `tx`. */
  trace(taskId: string, type: TraceEventType, data: Record<string, unknown>, tx: Repos): Promise<unknown>;
  /** Appends a `hook.context` task event (the model reads it with its next request), in the commit `tx`. */
  addContext(taskId: string, text: string, at: string, tx: Repos): Promise<unknown>;
  /** Runs a write about a task in its run's queue when it runs in this process (in order with its steps), else at once. */
  record(taskId: string, write: (tx: Repos) => Promise<unknown>): Promise<void>;
}

/** A PreToolUse verdict the gate's decision is tightened with. */
export interface ToolHookVerdict {
  effect: HookEffect;
  reason: string;
}

interface Entry {
  matches: (tool: string) => boolean;
  commands: readonly HookCommand[];
}

type Compiled = Record<HookEvent, Entry[]>;

/**
 * The configured hooks: runs the commands an event matches (all at once), traces every run,
 * reads their verdicts and records the context they add. A hook can deny, ask or add context;
 * it can never approve anything.
 */
export class Hooks {
  private compiled: Compiled;
  private readonly inFlight = new Set<Promise<unknown>>();
  private readonly ended = new Set<string>();

  constructor(
    config: HooksConfig,
    private readonly deps: HooksDeps,
  ) {
    this.compiled = compile(config);
  }

  /** Uses a new config from the next event on (Settings saved over RPC). */
  reload(config: HooksConfig): void {
    this.compiled = compile(config);
  }

  /** True when some hook of `event` applies (to `tool`, for tool events). Cheap: no allocation. */
  has(event: HookEvent, tool?: string): boolean {
    const entries = this.compiled[event];
    if (entries.length === 0) return false;
    if (tool === undefined) return true;
    for (const entry of entries) if (entry.matches(tool)) return true;
    return false;
  }

  /** Before a call is gated. Undefined when no hook objects; `allow` is never returned (it means nothing more than that). */
  async preToolUse(task: Task, call: { tool: string; args: unknown; index: number }): Promise<ToolHookVerdict | undefined> {
    const verdict = await this.runAll('PreToolUse', task, call.tool, {
      tool_name: call.tool,
      tool_input: call.args,
      step_index: call.index,
    });
    if (verdict?.context) await this.recordContext(task, 'PreToolUse', verdict.context);
    if (verdict?.effect === 'deny')
      return { effect: 'deny', reason: `PreToolUse hook: ${verdict.reason?.trim() || 'the call was denied (no reason given)'}` };
    if (verdict?.effect === 'ask')
      return { effect: 'ask', reason: `PreToolUse hook asks: ${verdict.reason?.trim() || 'a person should approve this call'}` };
    return undefined;
  }

  /** After a call completed: the hook sees the (redacted) result and may add context. */
  async postToolUse(task: Task, step: Step): Promise<void> {
    const verdict = await this.runAll('PostToolUse', task, step.tool, {
      tool_name: step.tool,
      tool_input: step.args,
      tool_response: step.output,
      step_index: step.index,
      tool_use_id: step.id,
    });
    if (verdict?.context) await this.recordContext(task, 'PostToolUse', verdict.context);
  }

  /**
   * A goal or a message is about to reach the task's model: `blocked` says why a hook refused it;
   * `context` is the text to record after it (already labelled).
   */
  async userPrompt(task: Task, prompt: string, source: 'goal' | 'message'): Promise<{ blocked?: string; context?: string }> {
    if (!this.has('UserPromptSubmit')) return {};
    const verdict = await this.runAll('UserPromptSubmit', task, undefined, { prompt, prompt_source: source });
    const blocked =
      verdict?.effect === 'deny' ? `UserPromptSubmit hook: ${verdict.reason?.trim() || 'blocked (no reason given)'}` : undefined;
    return {
      ...(blocked && { blocked }),
      ...(verdict?.context && !blocked && { context: contextText('UserPromptSubmit', verdict.context) }),
    };
  }

  /** A task's first run starts: TaskStart is observed; a goal passes UserPromptSubmit. Returns why the goal was blocked. */
  async taskStarting(task: Task): Promise<string | undefined> {
    this.observe('TaskStart', task, {});
    if (task.plan.kind !== 'goal') return undefined;
    const { blocked, context } = await this.userPrompt(task, task.plan.goal, 'goal');
    if (context) await this.record(task.id, (at, tx) => this.deps.addContext(task.id, context, at, tx));
    return blocked;
  }

  /** Fire-and-observe events from the event bus: a task that ended (TaskEnd), an approval waiting (Notification). */
  onTaskUpdated(task: Task, terminal: boolean): void {
    if (!terminal || !this.has('TaskEnd') || this.ended.has(task.id)) return;
    if (this.ended.size > 10_000) this.ended.clear();
    this.ended.add(task.id);
    this.observe('TaskEnd', task, { state: task.state, ...(task.stateReason !== undefined && { reason: task.stateReason }) });
  }

  /** An approval is waiting for a person. */
  onApprovalRequested(task: Task, approval: Approval): void {
    if (!this.has('Notification')) return;
    this.observe('Notification', task, {
      notification_type: 'approval_requested',
      message: `approval needed: ${approval.preview.summary}`,
      approval_id: approval.id,
      tool_name: approval.tool,
    });
  }

  /** Waits for hooks still running (close waits, so their trace events land). */
  async idle(): Promise<void> {
    while (this.inFlight.size > 0) await Promise.allSettled([...this.inFlight]);
  }

  /** Runs an event's hooks without waiting for them; their runs go to the trace only. */
  private observe(event: HookEvent, task: Task, fields: Record<string, unknown>): void {
    if (!this.has(event)) return;
    const run = this.runAll(event, task, undefined, fields).catch(() => undefined);
    this.inFlight.add(run);
    void run.finally(() => this.inFlight.delete(run));
  }

  private async runAll(event: HookEvent, task: Task, tool: string | undefined, fields: Record<string, unknown>) {
    const commands = this.commandsFor(event, tool);
    if (commands.length === 0) return undefined;
    const stdin = JSON.stringify(this.deps.redactor.value(hookInput(event, task, fields)));
    const env = hookEnv(event, task);
    const verdicts = await Promise.all(
      commands.map(async (command) => {
        const timeoutMs = (command.timeout ?? DEFAULT_HOOK_TIMEOUT_S) * 1000;
        const result = await this.deps.runner.run({ command: command.command, stdin, cwd: task.workspace, env, timeoutMs });
        const verdict = readVerdict(event, result);
        await this.traceRun(task.id, { event, command: command.command, timeoutMs, ...(tool !== undefined && { tool }) }, result, verdict);
        return verdict;
      }),
    );
    return combineVerdicts(verdicts);
  }

  private commandsFor(event: HookEvent, tool: string | undefined): HookCommand[] {
    const out: HookCommand[] = [];
    for (const entry of this.compiled[event]) if (tool === undefined || entry.matches(tool)) out.push(...entry.commands);
    return out;
  }

  private traceRun(
    taskId: string,
    about: { event: HookEvent; command: string; timeoutMs: number; tool?: string },
    result: HookProcessResult,
    verdict: HookVerdict,
  ): Promise<void> {
    const type: TraceEventType = verdict.outcome === 'timeout' ? 'hook.timeout' : verdict.outcome === 'error' ? 'hook.error' : 'hook.run';
    const data: Record<string, unknown> = {
      ...about,
      durationMs: result.durationMs,
      ...(result.kind === 'exited' && { exitCode: result.exitCode, ...(result.signal && { signal: result.signal }) }),
      ...(result.kind !== 'spawn_error' && { stdout: clip(result.stdout), stderr: clip(result.stderr) }),
      ...(verdict.effect && { effect: verdict.effect }),
      ...(verdict.reason && { reason: verdict.reason }),
      ...(verdict.context && { context: clip(verdict.context) }),
      ...(verdict.error && { error: verdict.error }),
    };
    return this.deps.record(taskId, (tx) => this.deps.trace(taskId, type, data, tx));
  }

  private async recordContext(task: Task, event: HookEvent, context: string): Promise<void> {
    if (task.plan.kind !== 'goal') return; // a playbook has no model to read it; the trace keeps it
    const text = contextText(event, context);
    await this.record(task.id, (at, tx) => this.deps.addContext(task.id, text, at, tx));
  }

  private record(taskId: string, write: (at: string, tx: Repos) => Promise<unknown>): Promise<void> {
    const at = isoAt(this.deps.clock.now());
    return this.deps.record(taskId, (tx) => write(at, tx));
  }
}

/** How hook context reads in the conversation (the model sees exactly this). */
export function contextText(event: HookEvent, context: string): string {
  return `[${event} hook] ${context.trim()}`;
}

function compile(config: HooksConfig): Compiled {
  const compiled = {} as Compiled;
  for (const event of HookEventSchema.options) {
    compiled[event] = (config[event] ?? []).map((entry) => ({ matches: compileToolMatcher(entry.matcher), commands: entry.hooks }));
  }
  return compiled;
}

function clip(text: string): string {
  const trimmed = text.trim();
  return trimmed.length > TRACE_OUTPUT_CHARS ? `${trimmed.slice(0, TRACE_OUTPUT_CHARS)}… (${trimmed.length} chars)` : trimmed;
}
