import { afterEach, describe, expect, it } from 'vitest';
import { createQueued } from '../../../../electron/cli/commands/queue.js';
import type { SqlSession } from '../../../../electron/runtime/store/sql/sqlPort.js';
import { TaskQueueRepo } from '../../../../electron/runtime/store/taskQueueRepo.js';
import { PLANNER_STATE_VERSION } from '../../../../electron/runtime/planning/llm/plannerState.js';
import type { TestRuntime } from '../../../support/runtime.js';
import { openStoreTestRuntime, storeMissing } from '../../../support/storeKinds.js';

// A worker's fill reads the first few pending entries of the queue. On PostgreSQL how many rows
// that touches is the server's plan: walking the primary key past every finished entry, or
// sorting the whole backlog (a table not yet analyzed is estimated at a few rows), made a fill
// cost what the queue's history or backlog costs: 3 ms a fill at 3,000 entries, most of the
// server's time in `bench queue --tasks 3000`. The plan is read with EXPLAIN ANALYZE of the
// statement the repository sends.

const PLAYBOOK = `
name: one-echo
inputs:
  n: { type: number, required: true }
steps:
  - { id: echo, tool: echo, args: { value: "\${inputs.n}" } }
`;
const QUEUED = 3000;
const FINISHED = 2000;
const PAGE = 8;

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  'Actual Rows'?: number;
  'Rows Removed by Filter'?: number;
  Plans?: PlanNode[];
}

function nodes(plan: PlanNode): PlanNode[] {
  return [plan, ...(plan.Plans ?? []).flatMap(nodes)];
}

/** The session's statements as they are, each one's plan recorded first (EXPLAIN ANALYZE runs a SELECT; nothing here writes). */
function explaining(db: SqlSession, plans: PlanNode[]): SqlSession {
  return {
    dialect: db.dialect,
    all: async <T>(sql: string, params?: readonly unknown[]) => {
      const [row] = await db.all<{ 'QUERY PLAN': { Plan: PlanNode }[] }>(`EXPLAIN (ANALYZE, FORMAT JSON) ${sql}`, params as never);
      plans.push(row!['QUERY PLAN'][0]!.Plan);
      return db.all<T>(sql, params as never);
    },
    get: (sql, params) => db.get(sql, params),
    run: (sql, params) => db.run(sql, params),
    defer: (sql, params) => db.defer(sql, params),
    deferRow: (batch, row) => db.deferRow(batch, row),
    deferGet: (sql, params) => db.deferGet(sql, params),
    exec: (sql) => db.exec(sql),
  };
}

let h: TestRuntime | undefined;
afterEach(async () => {
  await h?.cleanup();
  h = undefined;
});

describe('the queue’s ready entries on PostgreSQL', () => {
  const absent = storeMissing('postgres');
  it.skipIf(absent !== undefined)(
    `a fill reads the first ${PAGE} pending entries from their index, right after ${QUEUED} were queued and past ${FINISHED} finished ones`,
    async () => {
      h = await openStoreTestRuntime('postgres');
      const rt = h.rt;
      const specs = [];
      for (let n = 0; n < QUEUED; n++) {
        const built = await rt.tasks.build({
          source: { kind: 'playbook', source: PLAYBOOK, baseDir: h.home },
          requester: { kind: 'local' },
          inputs: { n },
        });
        specs.push(built.spec);
      }
      const ids = await createQueued(rt, specs); // as `queue add --count 3000` queues them
      const plans: PlanNode[] = [];
      const queue = new TaskQueueRepo(explaining(rt.store.sql, plans));
      expect((await queue.ready(PAGE, PLANNER_STATE_VERSION)).map((e) => e.taskId)).toEqual(ids.slice(0, PAGE));
      // The oldest entries have run: finished, before every pending one in the order of the queue.
      await rt.store.sql.run(`UPDATE task_queue SET state = 'done' WHERE seq IN (SELECT seq FROM task_queue ORDER BY seq LIMIT ?)`, [
        FINISHED,
      ]);
      expect((await queue.ready(PAGE, PLANNER_STATE_VERSION)).map((e) => e.taskId)).toEqual(ids.slice(FINISHED, FINISHED + PAGE));

      for (const plan of plans) {
        const all = nodes(plan);
        expect(all.map((n) => n['Node Type'])).not.toContain('Sort');
        const scans = all.filter((n) => n['Relation Name'] === 'task_queue' && (n['Actual Rows'] ?? 0) > 0);
        expect(scans.map((n) => [n['Node Type'], n['Index Name']])).toEqual([['Index Scan', 'task_queue_pending']]);
        expect(scans[0]!['Actual Rows']! + (scans[0]!['Rows Removed by Filter'] ?? 0)).toBeLessThanOrEqual(PAGE);
      }
    },
    60_000,
  );
});
