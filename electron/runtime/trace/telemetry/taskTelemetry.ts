import { context, ROOT_CONTEXT, SpanKind, trace, type Context, type Span, type Tracer } from '@opentelemetry/api';
import type { Approval, EventFrame, Step, Task } from '../../../contract/index.js';
import type { Clock } from '../../clock.js';
import { isTerminal } from '../../engine/stateMachine.js';
import type { EventBus } from '../../gateway/eventBus.js';
import type { Redactor } from '../redactor.js';
import { AGENT_DESK_EVENT } from './genAiAttributes.js';
import { reasonText, setRedacted } from './spanContent.js';
import { applyStep, applyStepEnd, approvalEvent, executeToolName, STEP_ENDED, toolCallAttributes } from './stepAttributes.js';
import { applyTaskEnd, agentNameOf, invokeAgentName, taskStartAttributes } from './taskAttributes.js';

/** How the runtime exports spans; the composition builds the tracer (the SDK) when telemetry is on. */
export interface TelemetryOptions {
  tracer: Tracer;
  /** Export prompt, output, tool arguments and results (redacted). */
  captureContent: boolean;
  /** Told when a task's span ended, so the exporter can send it now rather than at its next tick. */
  onTaskEnded?: () => void;
  /** Sends what is queued now, waiting a bounded time (a gateway that stops without closing the runtime). */
  flush?: () => Promise<void>;
}

interface StepSpan {
  span: Span;
  status?: Step['status'];
  /** Approvals whose decision this process saw as an event (others are inferred from the step). */
  resolved: Set<string>;
}

interface TaskSpan {
  span: Span;
  context: Context;
  state?: Task['state'];
  last?: Task;
  steps: Map<string, StepSpan>;
  /** Steps whose span ended: later news of them (a cancelled approval) starts no new span. */
  ended: Set<string>;
}

/**
 * Turns a task's life in this process into GenAI spans: one `invoke_agent` per task, an
 * `execute_tool` per step (its child), approvals and checks as span events. It follows the
 * events the engine already emits (`task.updated`, `task.step`, `approval.*`) and never changes
 * what the engine does; tool calls and model calls run inside their span's context, so
 * `traceparent` reaches model providers and MCP servers. Every attribute passes the redactor.
 */
export class TaskTelemetry {
  private readonly tasks = new Map<string, TaskSpan>();

  constructor(
    private readonly options: TelemetryOptions,
    private readonly redactor: Redactor,
    private readonly clock: Clock,
    /** True while the task runs in this process (news of a task run elsewhere, or of none, starts no span). */
    private readonly runsHere: (taskId: string) => boolean,
  ) {}

  get captureContent(): boolean {
    return this.options.captureContent;
  }

  get tracer(): Tracer {
    return this.options.tracer;
  }

  /** Follows the bus; returns the unsubscribe function. */
  follow(bus: EventBus): () => void {
    return bus.on({ events: ['task.updated', 'task.step', 'approval.requested', 'approval.resolved'] }, (frame) => this.onFrame(frame));
  }

  /** Runs a tool call inside its step's span, so what it sends (MCP over HTTP) carries the trace. */
  runTool<T>(call: { taskId: string; stepId: string; tool: string; tier: string }, run: () => Promise<T>): Promise<T> {
    const step = this.stepSpan(call.taskId, call.stepId, call.tool, call.tier, this.clock.now());
    return step ? context.with(trace.setSpan(context.active(), step.span), run) : run();
  }

  /** The context a model call of this task runs under: the task's span when it runs here, else none. */
  parentOf(taskId: string): Context {
    return this.tasks.get(taskId)?.context ?? ROOT_CONTEXT;
  }

  /** Ends every open span (the process closes): tasks still waiting say so in their state. */
  endAll(): void {
    const now = this.clock.now();
    for (const [taskId, task] of this.tasks) {
      for (const step of task.steps.values()) step.span.end(now);
      if (task.last) applyTaskEnd(task.span, task.last, this.redactor, this.options.captureContent, now);
      task.span.end(now);
      this.tasks.delete(taskId);
    }
  }

  private onFrame(frame: EventFrame): void {
    if (frame.event === 'task.updated') this.onTask(frame.data as Task);
    else if (frame.event === 'task.step') this.onStep(frame.data as Step);
    else this.onApproval(frame.data as Approval);
  }

  private onTask(task: Task): void {
    const open = this.tasks.get(task.id);
    if (isTerminal(task.state)) return open ? this.endTask(open, task) : undefined;
    // Created here, reviewed or paused while no run holds it, or run by another process: not this process's to trace.
    if (!open && (task.state === 'queued' || !this.runsHere(task.id))) return;
    const span = open ?? this.startTask(task);
    if (span.state !== undefined && span.state !== task.state) {
      span.span.addEvent(
        AGENT_DESK_EVENT.transition,
        {
          'agent_desk.task.from': span.state,
          'agent_desk.task.to': task.state,
          'agent_desk.task.reason': reasonText(task.stateReason ?? '', this.redactor, this.captureContent),
        },
        this.clock.now(),
      );
    }
    span.state = task.state;
    span.last = task;
  }

  private startTask(task: Task): TaskSpan {
    const span = this.tracer.startSpan(
      invokeAgentName(agentNameOf(task)),
      { kind: SpanKind.INTERNAL, startTime: this.clock.now() },
      this.parentFor(task),
    );
    // A task resumed in a new process (or after a pause) gets a new span with the same conversation id.
    setRedacted(span, this.redactor, taskStartAttributes(task, task.state !== 'planning', this.redactor, this.options.captureContent));
    const open: TaskSpan = { span, context: trace.setSpan(ROOT_CONTEXT, span), steps: new Map(), ended: new Set() };
    this.tasks.set(task.id, open);
    return open;
  }

  /** A sub-agent's task started by a delegating tool call is that call's child; any other task is a root. */
  private parentFor(task: Task): Context {
    const active = trace.getSpan(context.active());
    if (active && [...this.tasks.values()].some((t) => [...t.steps.values()].some((s) => s.span === active))) return context.active();
    return task.parentId ? this.parentOf(task.parentId) : ROOT_CONTEXT;
  }

  private endTask(open: TaskSpan, task: Task): void {
    const end = task.endedAt ? Date.parse(task.endedAt) : this.clock.now();
    for (const step of open.steps.values()) step.span.end(end);
    applyTaskEnd(open.span, task, this.redactor, this.options.captureContent, end);
    open.span.end(end);
    this.tasks.delete(task.id);
    this.options.onTaskEnded?.();
  }

  private onStep(step: Step): void {
    const open = this.stepSpan(step.taskId, step.id, step.tool, step.route?.tier, Date.parse(step.startedAt));
    if (!open) return; // a step of a task not running here
    applyStep(open.span, step, this.redactor, this.options.captureContent);
    if (step.approvalId && !open.resolved.has(step.approvalId)) this.inferDecision(open, step);
    open.status = step.status;
    if (!STEP_ENDED.has(step.status)) return;
    applyStepEnd(open.span, step, this.redactor, this.options.captureContent);
    open.span.end(step.endedAt ? Date.parse(step.endedAt) : this.clock.now());
    const task = this.tasks.get(step.taskId);
    task?.steps.delete(step.id);
    task?.ended.add(step.id);
  }

  /** The approval was decided by another process (the CLI, a phone, before a resume): the step's state tells how. */
  private inferDecision(open: StepSpan, step: Step): void {
    if (step.status === 'waiting_approval') return;
    const name = step.status === 'denied' ? AGENT_DESK_EVENT.approvalDenied : AGENT_DESK_EVENT.approvalApproved;
    open.span.addEvent(name, { 'agent_desk.approval.id': step.approvalId!, 'agent_desk.approval.seen_from': 'step' }, this.clock.now());
    open.resolved.add(step.approvalId!);
  }

  private onApproval(approval: Approval): void {
    const open = this.stepSpan(approval.taskId, approval.stepId, approval.tool, undefined, this.clock.now());
    if (!open) return;
    const { name, attributes } = approvalEvent(approval, this.redactor, this.options.captureContent);
    open.span.addEvent(name, attributes, this.clock.now());
    if (approval.status !== 'pending') open.resolved.add(approval.id);
  }

  /** The open span of a step of a task running here (started now if new); undefined for other tasks. */
  private stepSpan(taskId: string, stepId: string, tool: string, tier: string | undefined, startTime: number): StepSpan | undefined {
    const task = this.tasks.get(taskId);
    if (!task || task.ended.has(stepId)) return undefined;
    const known = task.steps.get(stepId);
    if (known) return known;
    const span = this.tracer.startSpan(executeToolName(tool), { kind: SpanKind.INTERNAL, startTime }, task.context);
    setRedacted(span, this.redactor, toolCallAttributes(tool, tier, stepId, taskId));
    const open: StepSpan = { span, resolved: new Set() };
    task.steps.set(stepId, open);
    return open;
  }
}
