import type { RuntimeClient } from '../client/runtimeClient.js';

/** Loading state of one remote collection, for empty/loading/error views. */
export type LoadStatus = 'idle' | 'loading' | 'ready' | 'error';

/** What every slice creator receives: zustand's set/get over the combined state. */
export type SliceSet<S> = (partial: Partial<S> | ((state: S) => Partial<S>)) => void;
/** zustand's get over the combined state. */
export type SliceGet<S> = () => S;

/** The client every action talks through; set once the connection is up. */
export interface ClientSlice {
  client: RuntimeClient | undefined;
}
