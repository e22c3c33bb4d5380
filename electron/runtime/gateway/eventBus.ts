import type { EventFrame, EventName, EventPayloads } from '../../contract/index.js';
import type { EventFilter } from './handlers.js';

/** Receives one pushed event as its wire frame. */
export type EventListener = (frame: EventFrame) => void;

/** In-process fan-out of the contract's events to transports and other listeners. */
export interface EventBus {
  /**
   * Delivers the event to every matching listener; a throwing listener does not stop the rest.
   * `elsewhere`: news of another process, read from the store — only listeners that asked for it get it.
   */
  emit<E extends EventName>(name: E, payload: EventPayloads[E], origin?: EventOrigin): void;
  /** Listens to events matching `filter`; returns the unsubscribe function. */
  on(filter: EventFilter, listener: EventListener, options?: ListenOptions): () => void;
  /** True when some listener takes `name` as news of another process (else reading it is wasted). */
  wantsElsewhere(name: EventName): boolean;
}

/** Where an event happened: in this process, or in another one writing the same store. */
export type EventOrigin = 'here' | 'elsewhere';

/** How a listener listens. */
export interface ListenOptions {
  /**
   * Also receive news of tasks run by other processes on the same store (what a person's view
   * wants: the web UI, the desktop window). The runtime's own listeners (hooks, telemetry,
   * desktops, the scheduler) act on this process's events only, so they never act twice.
   */
  elsewhere?: boolean;
}

/** Options for `createEventBus`. */
export interface EventBusOptions {
  /** Told about listeners that throw; the bus itself never does. */
  onListenerError?: (error: unknown, frame: EventFrame) => void;
}

/** A synchronous, in-memory event bus. */
export function createEventBus(options: EventBusOptions = {}): EventBus {
  const subscribers = new Set<{ filter: EventFilter; listener: EventListener; elsewhere: boolean }>();
  return {
    emit(name, payload, origin = 'here') {
      const frame: EventFrame = { event: name, data: payload };
      // A snapshot, so listeners may unsubscribe (or subscribe) while being called.
      for (const sub of [...subscribers]) {
        if (origin === 'elsewhere' && !sub.elsewhere) continue;
        if (!matchesFilter(sub.filter, frame)) continue;
        try {
          sub.listener(frame);
        } catch (error) {
          options.onListenerError?.(error, frame);
        }
      }
    },
    on(filter, listener, options = {}) {
      const sub = { filter, listener, elsewhere: options.elsewhere ?? false };
      subscribers.add(sub);
      return () => void subscribers.delete(sub);
    },
    wantsElsewhere(name) {
      for (const sub of subscribers) if (sub.elsewhere && (!sub.filter.events || sub.filter.events.includes(name))) return true;
      return false;
    },
  };
}

/** True when `frame` passes `filter`. The task of `task.updated` is its `id`; others carry `taskId`. */
export function matchesFilter(filter: EventFilter, frame: EventFrame): boolean {
  if (filter.events && !filter.events.includes(frame.event)) return false;
  if (filter.taskId !== undefined && taskIdOf(frame) !== filter.taskId) return false;
  return true;
}

function taskIdOf(frame: EventFrame): unknown {
  const data = frame.data as { id?: unknown; taskId?: unknown } | null | undefined;
  return frame.event === 'task.updated' ? data?.id : data?.taskId;
}
