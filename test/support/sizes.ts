/**
 * Soak and scale sizes: each read from its own environment variable, else from AGENT_DESK_SOAK
 * (`full` takes every full size), else the CI default. A CI default is the smallest size that still
 * walks every path of its test (a kill lands mid-run, both engines hold desktops, a restart finds
 * work in flight); the full size is what an issue asked the product to hold, and is run by hand
 * before a release or when a change touches that path. docs/benchmarks.md ("The suite") lists them.
 */
export interface SoakSize {
  /** The variable that sets this size alone. */
  variable: string;
  /** What CI runs: every path, fewer repetitions. */
  ci: number;
  /** What the issue asked to hold. */
  full: number;
}

export const SOAK_SIZES = {
  /** test/e2e/cli/queue.test.ts: tasks queued, then worked through a SIGKILL. */
  queueTasks: { variable: 'AGENT_DESK_SOAK_QUEUE_TASKS', ci: 500, full: 1000 },
  /** test/e2e/renderer/teamStore.test.ts: plain tasks beside the gated ones. */
  teamPlainTasks: { variable: 'AGENT_DESK_SOAK_TEAM_PLAIN', ci: 80, full: 240 },
  /** test/e2e/renderer/teamStore.test.ts: tasks that wait for an approval. */
  teamGatedTasks: { variable: 'AGENT_DESK_SOAK_TEAM_GATED', ci: 20, full: 60 },
  /** test/e2e/renderer/teamStore.test.ts: workers killed with SIGKILL (each replaced; a gateway restarts at half). */
  teamKills: { variable: 'AGENT_DESK_SOAK_TEAM_KILLS', ci: 6, full: 10 },
  /** test/e2e/sandbox/fleet/twoEngines.test.ts: desktop tasks over two engines, under runc. */
  fleetTasks: { variable: 'AGENT_DESK_FLEET_TASKS', ci: 16, full: 40 },
} as const satisfies Record<string, SoakSize>;

/** The size to run now: its own variable, else `full` under AGENT_DESK_SOAK=full, else the CI default. */
export function soakSize(size: SoakSize, env: NodeJS.ProcessEnv = process.env): number {
  const own = env[size.variable];
  if (own !== undefined && own !== '') {
    const n = Number(own);
    if (!Number.isInteger(n) || n <= 0) throw new Error(`${size.variable}=${own}: expected a positive whole number`);
    return n;
  }
  const soak = env.AGENT_DESK_SOAK;
  if (soak === undefined || soak === '' || soak === 'ci') return size.ci;
  if (soak === 'full') return size.full;
  throw new Error(`AGENT_DESK_SOAK=${soak}: expected "ci" or "full"`);
}
