import { describe, expect, it } from 'vitest';
import { ApprovalSchema, type Approval } from '../../../electron/contract/index.js';
import { planApprovalNotifications } from '../../../renderer/src/features/approvals/approvalNotifications.js';

const approval = (id: string): Approval =>
  ApprovalSchema.parse({
    id,
    taskId: 'task-1',
    stepId: 'remove',
    tool: 'fs.delete',
    args: { path: 'old.log' },
    risks: ['delete'],
    reason: 'delete asks by default',
    preview: { summary: 'Delete old.log' },
    rememberable: true,
    status: 'pending',
    createdAt: '2026-12-01T10:00:00.000Z',
  });
const away = { permission: 'granted', attended: false } as const;

describe('approval notifications', () => {
  it('a new approval is announced once while the user is away', () => {
    const first = planApprovalNotifications([approval('a1')], new Set(), away);
    expect(first.show.map((a) => a.id)).toEqual(['a1']);
    const again = planApprovalNotifications([approval('a1'), approval('a2')], first.known, away);
    expect(again.show.map((a) => a.id)).toEqual(['a2']);
  });

  it('nothing is announced without permission or while the user looks at the page, and not later either', () => {
    for (const permission of ['default', 'denied', 'unsupported'] as const)
      expect(planApprovalNotifications([approval('a1')], new Set(), { permission, attended: false }).show).toEqual([]);
    const seen = planApprovalNotifications([approval('a1')], new Set(), { permission: 'granted', attended: true });
    expect(seen.show).toEqual([]);
    expect(planApprovalNotifications([approval('a1')], seen.known, away).show).toEqual([]);
  });

  it('a decided approval closes its notification', () => {
    const shown = planApprovalNotifications([approval('a1'), approval('a2')], new Set(), away);
    const after = planApprovalNotifications([approval('a2')], shown.known, away);
    expect(after.close).toEqual(['a1']);
    expect(after.show).toEqual([]);
    expect([...after.known]).toEqual(['a2']);
  });
});
