import { createStore, type StoreApi } from 'zustand/vanilla';
import type { Locale } from '../i18n/index.js';
import type { RuntimeClient, RuntimeEvent } from '../client/runtimeClient.js';
import { createApprovalsSlice, type ApprovalsSlice } from './approvalsSlice.js';
import { createScreenSlice, type ScreenSlice } from './screenSlice.js';
import { createSettingsSlice, type SettingsSlice, type Theme } from './settingsSlice.js';
import { createTasksSlice, type TasksSlice } from './tasksSlice.js';
import { createTracesSlice, type TracesSlice } from './tracesSlice.js';
import type { ClientSlice } from './types.js';

/** The one store: every slice combined. */
export type AppState = ClientSlice & TasksSlice & ApprovalsSlice & TracesSlice & ScreenSlice & SettingsSlice;
/** The store handle. */
export type AppStore = StoreApi<AppState>;

/** Creates the combined store. */
export function createAppStore(initial: { locale: Locale; theme: Theme } = { locale: 'en', theme: 'light' }): AppStore {
  return createStore<AppState>()((set, get) => ({
    client: undefined,
    ...createTasksSlice(set, get),
    ...createApprovalsSlice(set, get),
    ...createTracesSlice(set, get),
    ...createScreenSlice(set, get),
    ...createSettingsSlice(set, initial),
  }));
}

/** Routes one pushed event into the slice that owns it. */
export function applyEvent(state: AppState, event: RuntimeEvent): void {
  switch (event.event) {
    case 'task.updated':
      return state.applyTask(event.data);
    case 'task.step':
      return state.applyStep(event.data);
    case 'approval.requested':
      state.applyApproval(event.data);
      // A new request pops its prompt unless another one is already open.
      if (!state.openApprovalId && event.data.status === 'pending') state.openApproval(event.data.id);
      return;
    case 'approval.resolved':
    case 'approval.updated':
      return state.applyApproval(event.data);
    case 'screen.frame':
      return state.applyFrame(event.data);
    default:
      return; // cron.fired: the schedules view reloads its runs itself
  }
}

/** Attaches a connected client: events flow into the store, then the lists load. */
export async function attachClient(store: AppStore, client: RuntimeClient): Promise<() => void> {
  const off = client.onEvent((event) => applyEvent(store.getState(), event));
  store.setState({ client });
  store.getState().setConnection('connected');
  await Promise.all([store.getState().loadTasks(), store.getState().loadApprovals(), store.getState().loadMe()]);
  return off;
}
