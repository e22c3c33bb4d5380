import { describe, expect, it } from 'vitest';
import type { Approval } from '../../../electron/contract/index.js';
import { approvalNotice, approvalRoute, mainLocale, trayMenuModel } from '../../../electron/main/notices.js';

const approval: Approval = {
  id: 'ap_1',
  taskId: 'task_1',
  stepId: 'step_1',
  tool: 'fs.delete',
  args: { path: 'logs/app-2026-10.log' },
  risks: ['delete'],
  reason: 'delete asks by default',
  preview: { summary: 'delete logs/app-2026-10.log' },
  rememberable: true,
  status: 'pending',
  createdAt: '2026-11-30T10:00:00.000Z',
};

describe('Electron main notices', () => {
  it('an approval notification names the tool, what will happen and why it asks', () => {
    expect(approvalNotice(approval, 'en')).toEqual({
      title: 'Approval needed: fs.delete',
      body: 'delete logs/app-2026-10.log\ndelete asks by default',
    });
    expect(approvalNotice(approval, 'zh-CN').title).toBe('需要审批：fs.delete');
  });

  it('long previews are cut to a notification-sized body', () => {
    const long = approvalNotice({ ...approval, preview: { summary: 'x'.repeat(500) } }, 'en');
    expect(long.body.length).toBe(180);
    expect(long.body.endsWith('…')).toBe(true);
  });

  it('the tray menu counts pending approvals and enables the review entry only when some wait', () => {
    expect(trayMenuModel(0, 'en')).toEqual({
      tooltip: 'Agent Desk',
      items: [
        { id: 'show', label: 'Show Agent Desk', enabled: true },
        { id: 'approvals', label: 'No approvals waiting', enabled: false },
        { id: 'separator' },
        { id: 'quit', label: 'Quit (tasks pause and resume next time)', enabled: true },
      ],
    });
    const two = trayMenuModel(2, 'zh-CN');
    expect(two.tooltip).toBe('Agent Desk — 2 个操作等待审批');
    expect(two.items[1]).toEqual({ id: 'approvals', label: '查看审批（2）', enabled: true });
  });

  it('a notification click opens the approval route the renderer understands', () => {
    expect(approvalRoute('app://agent-desk/index.html', 'ap 1')).toBe('app://agent-desk/index.html#/approval/ap%201');
    expect(approvalRoute('app://agent-desk/index.html')).toBe('app://agent-desk/index.html#/approvals');
    expect([mainLocale('zh-TW'), mainLocale('en-US'), mainLocale('fr')]).toEqual(['zh-CN', 'en', 'en']);
  });
});
