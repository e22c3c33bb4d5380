import type Database from 'better-sqlite3';
import type { RuleCall } from '../policy/ruleEngine.js';
import { AllowedTools, SKILLS_READ } from './allowedTools.js';

/** One skill put in use by a completed `skills.read` step. */
export interface SkillActivation {
  skill: string;
  stepId: string;
  /** Undefined: the skill narrows nothing. */
  allowedTools?: readonly string[];
}

interface ActiveSkill {
  activation: SkillActivation;
  allowed?: AllowedTools;
}

/** Tasks whose skills are kept in memory; others are read again from their step rows when asked. */
const CACHED_TASKS = 512;

/**
 * The skills each task has in use, and what they let it call. The record is the task's own
 * completed `skills.read` steps (their output names the skill and its `allowed-tools` as read
 * then), so a restarted runtime narrows exactly as before; a skill file edited mid-task cannot
 * widen it. A skill stays in use until the task ends, and a later skill narrows further, never
 * back: a page that tells the model to read a permissive skill gains nothing.
 */
export class SkillActivations {
  private readonly byTask = new Map<string, ActiveSkill[]>();
  private readonly completedReads: Database.Statement<[string, string]>;

  constructor(db: Database.Database) {
    this.completedReads = db.prepare(
      "SELECT id, output FROM steps WHERE task_id = ? AND tool = ? AND status = 'completed' ORDER BY idx, attempt",
    );
  }

  /** Records a skill read by a running step (its completed row follows; a repeat of the step adds nothing). */
  activate(taskId: string, activation: SkillActivation): void {
    const active = this.load(taskId);
    if (active.some((a) => a.activation.stepId === activation.stepId)) return;
    active.push(compile(activation));
  }

  /** The skills the task has in use, in the order they were read. */
  inUse(taskId: string): SkillActivation[] {
    return this.load(taskId).map((a) => a.activation);
  }

  /** Why a skill in use forbids this call, or undefined when every one permits it. */
  refusal(taskId: string, call: RuleCall): string | undefined {
    for (const { activation, allowed } of this.load(taskId)) {
      if (!allowed || allowed.permits(call)) continue;
      const entries = [...allowed.entries, SKILLS_READ].join(', ');
      const what = call.subject === '' ? `"${call.tool}"` : `"${call.tool}" on "${call.subject}"`;
      return `skill "${activation.skill}" is in use and allows only ${entries} (its allowed-tools); ${what} is not among them`;
    }
    return undefined;
  }

  private load(taskId: string): ActiveSkill[] {
    let active = this.byTask.get(taskId);
    if (active) return active;
    active = (this.completedReads.all(taskId, SKILLS_READ) as { id: string; output: string | null }[]).map((row) =>
      compile(activationOf(row.id, row.output)),
    );
    if (this.byTask.size >= CACHED_TASKS) this.byTask.delete(this.byTask.keys().next().value!);
    this.byTask.set(taskId, active);
    return active;
  }
}

function compile(activation: SkillActivation): ActiveSkill {
  return activation.allowedTools ? { activation, allowed: new AllowedTools(activation.allowedTools) } : { activation };
}

/** A stored `skills.read` output as an activation; one that cannot be read permits only `skills.read` (fail closed). */
function activationOf(stepId: string, output: string | null): SkillActivation {
  let value: { skill?: unknown; allowedTools?: unknown } | undefined;
  try {
    value = output === null ? undefined : (JSON.parse(output) as typeof value);
  } catch {
    value = undefined;
  }
  const skill = typeof value?.skill === 'string' ? value.skill : '(unreadable record)';
  const tools = value?.allowedTools;
  if (tools === null && typeof value?.skill === 'string') return { skill, stepId };
  const readable = Array.isArray(tools) && tools.every((t): t is string => typeof t === 'string');
  return { skill, stepId, allowedTools: readable ? tools : [] };
}
