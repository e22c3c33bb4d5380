import type { TraceEvent } from '../../../electron/contract/index.js';
import type { AppState } from './store.js';
import type { LoadStatus, SliceGet, SliceSet } from './types.js';

/** One task's trace as loaded so far. */
export interface LoadedTrace {
  status: LoadStatus;
  events: TraceEvent[];
  error?: string;
}

/** Traces: every page of a task's event log, for the viewer and JSON export. */
export interface TracesSlice {
  traces: Record<string, LoadedTrace>;
  loadTrace(taskId: string): Promise<void>;
}

/** The traces slice creator: pages through `traces.get` until the log ends. */
export function createTracesSlice(set: SliceSet<AppState>, get: SliceGet<AppState>): TracesSlice {
  const put = (taskId: string, trace: LoadedTrace) => set((s) => ({ traces: { ...s.traces, [taskId]: trace } }));
  return {
    traces: {},
    async loadTrace(taskId) {
      const client = get().client;
      if (!client) return;
      put(taskId, { status: 'loading', events: get().traces[taskId]?.events ?? [] });
      try {
        const events: TraceEvent[] = [];
        let afterSeq = 0;
        for (;;) {
          const page = await client.call('traces.get', { taskId, afterSeq, limit: 1000 });
          events.push(...page.events);
          if (page.nextSeq === undefined || page.events.length === 0) break;
          afterSeq = page.nextSeq;
        }
        put(taskId, { status: 'ready', events });
      } catch (error) {
        put(taskId, { status: 'error', events: [], error: (error as Error).message });
      }
    },
  };
}
