import { createHash } from 'node:crypto';
import path from 'node:path';
import { ulid } from 'ulid';
import type { MemoryNote, MemoryScope, Task } from '../../contract/index.js';
import { isoAt, type Clock } from '../clock.js';
import type { RuntimeCore } from '../core/runtimeCore.js';
import { AgentRepo } from '../store/agentRepo.js';
import { MemoryRepo } from '../store/memoryRepo.js';

/** Most notes per scope in a snapshot, and its size cap: it enters every prompt of the task. */
const SNAPSHOT_NOTES = 30;
const SNAPSHOT_CHARS = 8000;

/** Renders notes of the given scopes as the memory block of a stable prompt prefix ('' when empty). */
export function renderSnapshot(sections: readonly { scope: MemoryScope; notes: readonly MemoryNote[] }[]): string {
  const parts: string[] = [];
  for (const { scope, notes } of sections) {
    if (notes.length === 0) continue;
    parts.push(`## Memory (${scope.kind}: ${scope.id})`, ...notes.map((n) => `- ${n.text.replace(/\s+/g, ' ').trim()}`));
  }
  const text = parts.join('\n');
  return text.length <= SNAPSHOT_CHARS ? text : `${text.slice(0, SNAPSHOT_CHARS)}\n…`;
}

/** Cross-session memory of a runtime: notes per agent and per workspace, searched with FTS5. */
export class MemoryService {
  readonly notes: MemoryRepo;
  private readonly agents: AgentRepo;
  private readonly clock: Clock;

  constructor(rt: Pick<RuntimeCore, 'store' | 'clock'>) {
    this.notes = new MemoryRepo(rt.store.sql);
    this.agents = new AgentRepo(rt.store.sql);
    this.clock = rt.clock;
  }

  /** Remembers a note. `key` (a tool call's idempotency key) makes a repeated save a no-op. */
  async add(
    scope: MemoryScope,
    text: string,
    tags: readonly string[] = [],
    origin: { taskId?: string; key?: string } = {},
  ): Promise<MemoryNote> {
    const id = origin.key === undefined ? `mem_${ulid()}` : `mem_${createHash('sha256').update(origin.key).digest('hex').slice(0, 26)}`;
    const note: MemoryNote = {
      id,
      scope: normalize(scope),
      text,
      tags: [...tags],
      ...(origin.taskId !== undefined && { taskId: origin.taskId }),
      createdAt: isoAt(this.clock.now()),
    };
    await this.notes.add(note);
    return (await this.notes.get(note.scope, id)) ?? note;
  }

  search(scope: MemoryScope, query: string, limit = 20): Promise<MemoryNote[]> {
    return this.notes.search(normalize(scope), query, limit);
  }

  forget(scope: MemoryScope, noteId: string): Promise<boolean> {
    return this.notes.forget(normalize(scope), noteId);
  }

  /** The scopes a task may read and write: its workspace, and its agent's when it runs as one. */
  async scopesOf(task: Pick<Task, 'id' | 'workspace'>): Promise<MemoryScope[]> {
    const agent = await this.agents.agentOf(task.id);
    return [
      ...(agent === undefined ? [] : [{ kind: 'agent' as const, id: agent }]),
      { kind: 'workspace', id: path.resolve(task.workspace) },
    ];
  }

  /** The memory block as it stands now for these scopes. */
  async memorySnapshot(scopes: readonly MemoryScope[]): Promise<string> {
    const sections = [];
    for (const scope of scopes) sections.push({ scope, notes: (await this.notes.recent(normalize(scope), SNAPSHOT_NOTES)).reverse() });
    return renderSnapshot(sections);
  }

  /**
   * The task's frozen snapshot: taken the first time it is asked for (at task start, by the
   * context builder) and the same text afterwards, so the stable prefix never changes mid-task.
   */
  async snapshotFor(task: Pick<Task, 'id' | 'workspace'>): Promise<string> {
    const frozen = await this.notes.snapshot(task.id);
    if (frozen !== undefined) return frozen;
    const text = await this.memorySnapshot(await this.scopesOf(task));
    return this.notes.freezeSnapshot(task.id, text, isoAt(this.clock.now()));
  }
}

function normalize(scope: MemoryScope): MemoryScope {
  return scope.kind === 'workspace' ? { kind: 'workspace', id: path.resolve(scope.id) } : scope;
}
