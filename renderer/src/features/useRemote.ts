import { useCallback, useEffect, useRef, useState } from 'react';
import { RuntimeError, type RuntimeClient } from '../client/runtimeClient.js';
import type { LoadStatus } from '../stores/types.js';
import { useApp } from './useApp.js';

/** A view's remote data with its loading state, for the empty / loading / error views. */
export interface Remote<T> {
  status: LoadStatus;
  data: T | undefined;
  error: string | undefined;
  /** The runtime's error code (e.g. `forbidden` when this connection lacks the method's scope). */
  errorCode: string | undefined;
  reload(): Promise<void>;
  /** Shows data the caller already has (e.g. a write's answer), dropping any load in flight. */
  replace(data: T): void;
}

/**
 * Loads view-local data through the client (catalogs, schedules, settings): what only one view
 * shows stays out of the shared store. A reload keeps the previous data visible while it runs.
 */
export function useRemote<T>(load: (client: RuntimeClient) => Promise<T>, deps: readonly unknown[] = []): Remote<T> {
  const client = useApp((s) => s.client);
  const [state, setState] = useState<{ status: LoadStatus; data?: T; error?: string; errorCode?: string }>({ status: 'idle' });
  const loadRef = useRef(load);
  loadRef.current = load;
  const generation = useRef(0);

  const reload = useCallback(async () => {
    if (!client) return;
    const mine = ++generation.current;
    setState((s) => ({ ...s, status: 'loading', error: undefined, errorCode: undefined }));
    try {
      const data = await loadRef.current(client);
      if (mine === generation.current) setState({ status: 'ready', data });
    } catch (error) {
      const errorCode = error instanceof RuntimeError ? error.code : undefined;
      if (mine === generation.current) setState((s) => ({ ...s, status: 'error', error: (error as Error).message, errorCode }));
    }
  }, [client, ...deps]);

  const replace = useCallback((data: T) => {
    generation.current++;
    setState({ status: 'ready', data });
  }, []);

  useEffect(() => {
    void reload();
  }, [reload]);
  return { status: state.status, data: state.data, error: state.error, errorCode: state.errorCode, reload, replace };
}

/** Runs one action with a busy flag and its error message; the view decides what to reload after. */
export function useAction(): {
  busy: boolean;
  error: string | undefined;
  run: (action: () => Promise<unknown>) => Promise<boolean>;
  clear: () => void;
} {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  const run = useCallback(async (action: () => Promise<unknown>) => {
    setBusy(true);
    setError(undefined);
    try {
      await action();
      return true;
    } catch (e) {
      setError((e as Error).message);
      return false;
    } finally {
      setBusy(false);
    }
  }, []);
  return { busy, error, run, clear: () => setError(undefined) };
}

/**
 * `useAction` for calls through the runtime client: `withClient` runs the call as the action and
 * resolves false, without running it, while there is no client yet.
 */
export function useClientAction(): ReturnType<typeof useAction> & {
  withClient: (action: (client: RuntimeClient) => Promise<unknown>) => Promise<boolean>;
} {
  const client = useApp((s) => s.client);
  const action = useAction();
  const withClient = (call: (client: RuntimeClient) => Promise<unknown>) =>
    client ? action.run(() => call(client)) : Promise.resolve(false);
  return { ...action, withClient };
}
