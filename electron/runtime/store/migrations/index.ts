import { init } from './001_init.js';
import { scheduler } from './002_scheduler.js';
import { memory } from './003_memory.js';
import { agents } from './004_agents.js';
import { taskOptions } from './005_task_options.js';
import { plannerState } from './006_planner_state.js';
import { gatewayTokens } from './007_gateway_tokens.js';
import { stateReasonText } from './008_state_reason_text.js';
import { stepsByTool } from './009_steps_by_tool.js';

/** A numbered schema change. Never edit a released one: add the next number. */
export interface Migration {
  version: number;
  name: string;
  sql: string;
}

/** Every migration, in order. */
export const MIGRATIONS: readonly Migration[] = [
  { version: 1, name: 'init', sql: init },
  { version: 2, name: 'scheduler', sql: scheduler },
  { version: 3, name: 'memory', sql: memory },
  { version: 4, name: 'agents', sql: agents },
  { version: 5, name: 'task_options', sql: taskOptions },
  { version: 6, name: 'planner_state', sql: plannerState },
  { version: 7, name: 'gateway_tokens', sql: gatewayTokens },
  { version: 8, name: 'state_reason_text', sql: stateReasonText },
  { version: 9, name: 'steps_by_tool', sql: stepsByTool },
];
