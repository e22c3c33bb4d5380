import type { MethodParams, Step, Task, TaskEvent } from '../../../electron/contract/index.js';
import { RuntimeError } from '../client/runtimeClient.js';
import type { AppState } from './store.js';
import type { LoadStatus, SliceGet, SliceSet } from './types.js';

/** Tasks: the list, each task's steps, and creating new ones. */
export interface TasksSlice {
  tasks: Record<string, Task>;
  listStatus: LoadStatus;
  listError: string | undefined;
  /** The runtime's code for the list's failure: `forbidden` when this connection may not read tasks (an approvals-only token). */
  listErrorCode: string | undefined;
  /** Steps per task id, ordered by index then attempt. */
  steps: Record<string, Step[]>;
  /** Conversation events per task id (messages, model text, the answer), by seq. */
  events: Record<string, TaskEvent[]>;
  loadTasks(): Promise<void>;
  loadTask(taskId: string): Promise<void>;
  /** Creates and starts a task from playbook YAML; resolves to its id. */
  createTask(source: string, title?: string): Promise<string>;
  /** Creates and starts a task with every `tasks.create` option (goal, model, checks…); resolves to its id. */
  createTaskWith(params: MethodParams<'tasks.create'>): Promise<string>;
  applyTask(task: Task): void;
  applyStep(step: Step): void;
  /** Stop, Pause, Resume: the runtime's answer replaces the task. */
  controlTask(taskId: string, action: 'cancel' | 'pause' | 'resume'): Promise<void>;
  /** Sends the task a message (`tasks.message`), then reloads its conversation. */
  messageTask(taskId: string, text: string): Promise<void>;
}

/** Tasks newest first. */
export function sortedTasks(tasks: Record<string, Task>): Task[] {
  return Object.values(tasks).sort((a, b) => (a.createdAt < b.createdAt ? 1 : a.createdAt > b.createdAt ? -1 : b.id.localeCompare(a.id)));
}

/** Inserts or replaces a step (same id), keeping plan order. */
export function mergeStep(steps: readonly Step[], step: Step): Step[] {
  const next = steps.filter((s) => s.id !== step.id);
  next.push(step);
  return next.sort((a, b) => a.index - b.index || a.attempt - b.attempt);
}

/** Keeps the newer of two versions of a task (events may overtake a slower `tasks.get`). */
export function newerTask(current: Task | undefined, incoming: Task): Task {
  return current && current.updatedAt > incoming.updatedAt ? current : incoming;
}

/** The tasks slice creator. */
export function createTasksSlice(set: SliceSet<AppState>, get: SliceGet<AppState>): TasksSlice {
  return {
    tasks: {},
    listStatus: 'idle',
    listError: undefined,
    listErrorCode: undefined,
    steps: {},
    events: {},
    async loadTasks() {
      const client = get().client;
      if (!client) return;
      // The last failure's code stays while reloading, so an approvals-only page does not flash the task list.
      set({ listStatus: 'loading', listError: undefined });
      try {
        const { tasks } = await client.call('tasks.list', { limit: 200 });
        set((s) => ({
          listStatus: 'ready',
          listErrorCode: undefined,
          tasks: Object.fromEntries(tasks.map((t) => [t.id, newerTask(s.tasks[t.id], t)])),
        }));
      } catch (error) {
        set({
          listStatus: 'error',
          listError: (error as Error).message,
          listErrorCode: error instanceof RuntimeError ? error.code : undefined,
        });
      }
    },
    async loadTask(taskId) {
      const client = get().client;
      if (!client) return;
      const { task, steps, events } = await client.call('tasks.get', { taskId });
      get().applyTask(task);
      for (const step of steps) get().applyStep(step);
      set((s) => ({ events: { ...s.events, [taskId]: [...events].sort((a, b) => a.seq - b.seq) } }));
    },
    createTask(source, title) {
      return get().createTaskWith({ playbook: { source }, ...(title ? { title } : {}) });
    },
    async createTaskWith(params) {
      const client = get().client;
      if (!client) throw new Error('not connected');
      const task = await client.call('tasks.create', params);
      get().applyTask(task);
      return task.id;
    },
    applyTask(task) {
      set((s) => ({ tasks: { ...s.tasks, [task.id]: newerTask(s.tasks[task.id], task) } }));
    },
    applyStep(step) {
      set((s) => ({ steps: { ...s.steps, [step.taskId]: mergeStep(s.steps[step.taskId] ?? [], step) } }));
    },
    async controlTask(taskId, action) {
      const client = get().client;
      if (!client) throw new Error('not connected');
      const method = action === 'cancel' ? 'tasks.cancel' : action === 'pause' ? 'tasks.pause' : 'tasks.resume';
      get().applyTask(await client.call(method, { taskId }));
    },
    async messageTask(taskId, text) {
      const client = get().client;
      if (!client) throw new Error('not connected');
      await client.call('tasks.message', { taskId, text });
      await get().loadTask(taskId);
    },
  };
}
