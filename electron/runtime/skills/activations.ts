import type { RuleCall } from '../policy/ruleEngine.js';
import type { SqlSession } from '../store/sql/sqlPort.js';
import { AllowedTools, SKILLS_READ } from './allowedTools.js';

/** One skill put in use by a `skills.read` step. */
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

/** Compiled activations kept in memory (a completed step's output never changes); more are read again. */
const MAX_CACHED = 4096;

// The tool is a literal, not a parameter: only then can SQLite use the partial index (migration 9).
const COMPLETED_READS = `SELECT id FROM steps WHERE task_id = ? AND tool = '${SKILLS_READ}' AND status = 'completed' ORDER BY idx, attempt`;
const OUTPUT_OF = 'SELECT output FROM steps WHERE id = ?';

/**
 * The skills each task has in use, and what they let it call. The record is the task's own
 * completed `skills.read` steps (their output names the skill and its `allowed-tools` as read
 * then), looked up through an index when this process takes up the task (`reload`: another
 * process may have run it meanwhile) and kept while it runs it; an edit of the SKILL.md mid-task
 * cannot widen it.
 * A skill stays in use until the task ends, and a later skill narrows further, never back: a page
 * that tells the model to read a permissive skill gains nothing.
 */
export class SkillActivations {
  /** Compiled activations by step id. */
  private readonly byStep = new Map<string, ActiveSkill>();
  /** Reads this process ran whose completed row is not written yet, by task. */
  private readonly running = new Map<string, ActiveSkill[]>();
  /** A task's completed reads as last looked up, kept until `reload` and while this process runs no read for it. */
  private readonly seen = new Map<string, { ids: string[]; at: number }>();
  /** Numbers lookups and reloads in the order they start (`at`), so an answer overtaken by either is not kept. */
  private sequence = 0;
  private reloadedAt = 0;

  constructor(private readonly sql: SqlSession) {}

  /**
   * This process takes up the task (its runner lease): look its reads up again at the next
   * decision. While the lease is held no other process adds steps to the task, so nothing read
   * before the next `reload` can go stale.
   */
  reload(taskId: string, neverRan = false): void {
    this.seen.delete(taskId);
    this.reloadedAt = ++this.sequence;
    // A task that never ran has no reads: known empty as of now, so its first decision reads nothing.
    if (!neverRan) return;
    if (this.seen.size >= MAX_CACHED) this.seen.delete(this.seen.keys().next().value!);
    this.seen.set(taskId, { ids: [], at: this.reloadedAt });
  }

  /** Records a skill read by a running step, so the next decision sees it before its completed row lands. */
  activate(taskId: string, activation: SkillActivation): void {
    const running = this.running.get(taskId) ?? [];
    if (running.some((a) => a.activation.stepId === activation.stepId)) return;
    running.push(compile(activation));
    if (this.running.size >= MAX_CACHED) this.running.delete(this.running.keys().next().value!);
    this.running.set(taskId, running);
  }

  /** The skills the task has in use, in the order they were read. */
  async inUse(taskId: string): Promise<SkillActivation[]> {
    return (await this.load(taskId)).map((a) => a.activation);
  }

  /** Why a skill in use forbids this call, or undefined when every one permits it. */
  async refusal(taskId: string, call: RuleCall): Promise<string | undefined> {
    for (const { activation, allowed } of await this.load(taskId)) {
      if (!allowed || allowed.permits(call)) continue;
      const entries = [...allowed.entries, SKILLS_READ].join(', ');
      const what = call.subject === '' ? `"${call.tool}"` : `"${call.tool}" on "${call.subject}"`;
      return `skill "${activation.skill}" is in use and allows only ${entries} (its allowed-tools); ${what} is not among them`;
    }
    return undefined;
  }

  private async load(taskId: string): Promise<ActiveSkill[]> {
    // The running reads as they were before the lookup, and again after it: a read whose row
    // lands meanwhile is among the ids or among these, even when another decision forgets it.
    const before = [...(this.running.get(taskId) ?? [])];
    const ids = await this.completedReadIds(taskId);
    const active: ActiveSkill[] = [];
    for (const id of ids) active.push(this.byStep.get(id) ?? (await this.completed(id)));
    const running = this.running.get(taskId);
    if (running) {
      const left = running.filter((a) => !ids.includes(a.activation.stepId));
      if (left.length === 0) this.running.delete(taskId);
      else this.running.set(taskId, left);
    }
    const pending = new Set([...before, ...(running ?? [])]);
    active.push(...[...pending].filter((a) => !ids.includes(a.activation.stepId)));
    return active;
  }

  /**
   * The ids of the task's completed `skills.read` steps: looked up once per lease (see `reload`)
   * and again while a read of this process for the task waits for its row.
   */
  private async completedReadIds(taskId: string): Promise<string[]> {
    const hit = this.seen.get(taskId);
    if (hit && !this.running.has(taskId)) return hit.ids;
    const at = ++this.sequence;
    const ids = (await this.sql.all<{ id: string }>(COMPLETED_READS, [taskId])).map((row) => row.id);
    // A reload since it started (it may predate the lease) or a later lookup kept already (it read
    // more): this answer serves its own decision only.
    const kept = this.seen.get(taskId);
    if (at < this.reloadedAt || (kept && kept.at > at)) return ids;
    if (this.seen.size >= MAX_CACHED) this.seen.delete(this.seen.keys().next().value!);
    this.seen.set(taskId, { ids, at });
    return ids;
  }

  private async completed(stepId: string): Promise<ActiveSkill> {
    const row = await this.sql.get<{ output: string | null }>(OUTPUT_OF, [stepId]);
    // Another decision may have compiled it meanwhile: keep the one object.
    let active = this.byStep.get(stepId);
    if (!active) {
      active = compile(activationOf(stepId, row?.output ?? null));
      if (this.byStep.size >= MAX_CACHED) this.byStep.delete(this.byStep.keys().next().value!);
      this.byStep.set(stepId, active);
    }
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
