import type { Approval, Task } from '../../../../electron/contract/index.js';
import type { IdempotencyStore } from '../../../../electron/runtime/gateway/index.js';

/** A task that satisfies TaskSchema. */
export function aTask(overrides: Partial<Task> = {}): Task {
  return {
    id: 't1',
    title: 'Rename the report',
    state: 'queued',
    plan: { kind: 'playbook', source: 'steps: []', baseDir: '/tmp' },
    inputs: {},
    workspace: '/tmp/ws',
    budget: { maxSteps: 10, maxTokens: 1000, maxCostUsd: 1, maxWallMs: 60_000 },
    usage: { steps: 0, modelCalls: 0, tokensIn: 0, tokensOut: 0, costUsd: 0, wallMs: 0 },
    checks: [],
    createdAt: '2025-01-01T00:00:00.000Z',
    updatedAt: '2025-01-01T00:00:00.000Z',
    ...overrides,
  };
}

/** An approval that satisfies ApprovalSchema. */
export function anApproval(overrides: Partial<Approval> = {}): Approval {
  return {
    id: 'a1',
    taskId: 't1',
    stepId: 's1',
    tool: 'file.delete',
    args: { path: 'report.txt' },
    risks: [],
    reason: 'deletes a file',
    preview: { summary: 'delete report.txt' },
    rememberable: true,
    status: 'pending',
    createdAt: '2025-01-01T00:00:00.000Z',
    ...overrides,
  };
}

/** The idempotency port kept in a Map, as a test double of the SQLite store. */
export function memoryIdempotencyStore(): IdempotencyStore & { size(): number } {
  const records = new Map<string, { paramsDigest: string; response: unknown }>();
  const slot = (method: string, key: string) => JSON.stringify([method, key]);
  return {
    get: async (method, key) => records.get(slot(method, key)),
    put: async (method, key, paramsDigest, response) => void records.set(slot(method, key), { paramsDigest, response }),
    size: () => records.size,
  };
}
