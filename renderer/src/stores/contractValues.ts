import type { TaskState, Tier } from '../../../electron/contract/index.js';

// The renderer imports only types from the contract: a value import would pull zod (and every
// schema) into the bundle. The few values it needs are restated here, typed against the
// contract, and a unit test pins them to the contract's own constants.

/** States a task never leaves (contract: TERMINAL_STATES). */
export const ENDED_STATES: readonly TaskState[] = ['succeeded', 'failed', 'cancelled'];

/** Tool tiers in router preference order (contract: TIER_ORDER). */
export const TIERS: readonly Tier[] = ['api', 'mcp', 'browser', 'gui'];
