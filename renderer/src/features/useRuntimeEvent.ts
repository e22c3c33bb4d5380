import { useEffect, useRef } from 'react';
import type { EventName } from '../../../electron/contract/index.js';
import type { RuntimeEvent } from '../client/runtimeClient.js';
import { useApp } from './useApp.js';

/** Calls `handler` for each pushed event of one name while the view is mounted. */
export function useRuntimeEvent<K extends EventName>(name: K, handler: (event: Extract<RuntimeEvent, { event: K }>) => void): void {
  const client = useApp((s) => s.client);
  const handlerRef = useRef(handler);
  handlerRef.current = handler;
  useEffect(() => {
    if (!client) return;
    return client.onEvent((event) => {
      if (event.event === name) handlerRef.current(event as Extract<RuntimeEvent, { event: K }>);
    });
  }, [client, name]);
}
