import { init } from './001_init.js';
import { scheduler } from './002_scheduler.js';
import { memory, memoryPostgres } from './003_memory.js';
import { agents } from './004_agents.js';
import { taskOptions } from './005_task_options.js';
import { plannerState } from './006_planner_state.js';
import { gatewayTokens } from './007_gateway_tokens.js';
import { stateReasonText } from './008_state_reason_text.js';
import { stepsByTool } from './009_steps_by_tool.js';
import { watchIndexes } from './010_watch_indexes.js';
import { workerLeases } from './011_worker_leases.js';
import { changeNotices, changeNoticesPostgres } from './012_change_notices.js';
import { runFence, runFencePostgres } from './013_run_fence.js';
import { spend } from './015_spend.js';
import { people } from './014_people.js';
import { pendingQueueIndex } from './016_pending_queue_index.js';

/**
 * A numbered schema change. Never edit a released one: add the next number. `sql` is written for
 * SQLite; PostgreSQL runs `postgres` where a migration needs its own (full-text search), and
 * otherwise the same text with SQLite's type names mapped (`postgresSql`).
 */
export interface Migration {
  version: number;
  name: string;
  sql: string;
  postgres?: string;
}

/** Every migration, in order. */
export const MIGRATIONS: readonly Migration[] = [
  { version: 1, name: 'init', sql: init },
  { version: 2, name: 'scheduler', sql: scheduler },
  { version: 3, name: 'memory', sql: memory, postgres: memoryPostgres },
  { version: 4, name: 'agents', sql: agents },
  { version: 5, name: 'task_options', sql: taskOptions },
  { version: 6, name: 'planner_state', sql: plannerState },
  { version: 7, name: 'gateway_tokens', sql: gatewayTokens },
  { version: 8, name: 'state_reason_text', sql: stateReasonText },
  { version: 9, name: 'steps_by_tool', sql: stepsByTool },
  { version: 10, name: 'watch_indexes', sql: watchIndexes },
  { version: 11, name: 'worker_leases', sql: workerLeases },
  { version: 12, name: 'change_notices', sql: changeNotices, postgres: changeNoticesPostgres },
  { version: 13, name: 'run_fence', sql: runFence, postgres: runFencePostgres },
  { version: 14, name: 'people', sql: people },
  { version: 15, name: 'spend', sql: spend },
  { version: 16, name: 'pending_queue_index', sql: pendingQueueIndex },
];

/**
 * A migration's PostgreSQL text: its own, or its SQLite text with the types mapped — 64-bit
 * integers (SQLite's INTEGER is 64-bit), 8-byte floats (SQLite's REAL), a serial key for
 * AUTOINCREMENT, and no WITHOUT ROWID (PostgreSQL tables have no rowid to leave out).
 */
export function postgresSql(m: Migration): string {
  if (m.postgres !== undefined) return m.postgres;
  return m.sql
    .replace(/\bINTEGER PRIMARY KEY AUTOINCREMENT\b/g, 'BIGSERIAL PRIMARY KEY')
    .replace(/\bINTEGER\b/g, 'BIGINT')
    .replace(/\bREAL\b/g, 'DOUBLE PRECISION')
    .replace(/\)\s*WITHOUT ROWID/g, ')');
}
