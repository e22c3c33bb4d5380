import type { Step, TraceEventType } from '../../contract/index.js';
import type { Write } from './commitQueue.js';
import type { StepRecorder } from './stepRecorder.js';

/**
 * One executor's writes, in the order things happened. A read-only call has no side effect to
 * protect, so its `step.started` is held instead of written on its own: its completion tells
 * both halves in one event (one commit instead of two); anything else written about the step
 * first — a failure, a progress report, a question — writes the held start before itself.
 */
export class StepWrites implements StepRecorder {
  /** Held `step.started` data, one per tool tried (a fallback keeps the step's id). */
  private heldStarts: Record<string, unknown>[] = [];
  private heldStepId = '';

  constructor(private readonly recorder: StepRecorder) {}

  /** Records a step; held starts are written first, in the same commit. */
  saveStep(step: Step, extra?: () => void, lazy = false): Promise<Step> {
    if (this.heldStarts.length === 0) return this.recorder.saveStep(step, extra, lazy);
    const starts = this.heldStarts;
    const stepId = this.heldStepId;
    this.heldStarts = []; // a lazy save writes later: it keeps its own list
    return this.recorder.saveStep(
      step,
      () => {
        this.traceStarts(starts, stepId);
        extra?.();
      },
      lazy,
    );
  }

  trace(type: TraceEventType, data: Record<string, unknown>, stepId?: string): void {
    this.recorder.trace(type, data, stepId);
  }

  commit(write: Write, lazy?: boolean): Promise<void> {
    return this.recorder.commit(write, lazy);
  }

  /** Holds a read-only call's start until its result (or anything else about it) is written. */
  holdStart(stepId: string, data: Record<string, unknown>): void {
    this.heldStepId = stepId;
    this.heldStarts.push(data);
  }

  /** Writes held starts now: events a call sends mid-way come after its start. */
  writeHeldStarts(): void {
    if (this.heldStarts.length === 0) return;
    const starts = this.heldStarts;
    this.heldStarts = [];
    this.traceStarts(starts, this.heldStepId);
  }

  /** The start of the tool that answered, to merge into its completion event; the held writes are dropped. */
  takeHeldStart(): Record<string, unknown> | undefined {
    const start = this.heldStarts[this.heldStarts.length - 1];
    this.heldStarts.length = 0; // never handed out (a save takes the list it writes): safe to reuse
    return start;
  }

  private traceStarts(starts: readonly Record<string, unknown>[], stepId: string): void {
    for (const data of starts) this.recorder.trace('step.started', data, stepId);
  }
}
