import type { Approval } from '../contract/index.js';

/** The languages main's own texts come in (the window has its own catalogs). */
export type MainLocale = 'en' | 'zh-CN';

/** Picks main's language from the OS locale (`app.getLocale()`). */
export function mainLocale(osLocale: string): MainLocale {
  return osLocale.toLowerCase().startsWith('zh') ? 'zh-CN' : 'en';
}

const TEXTS = {
  en: {
    noticeTitle: (tool: string) => `Approval needed: ${tool}`,
    show: 'Show Agent Desk',
    approvals: (n: number) => (n === 0 ? 'No approvals waiting' : `Review approvals (${n})`),
    quit: 'Quit (tasks pause and resume next time)',
    tooltip: (n: number) => (n === 0 ? 'Agent Desk' : `Agent Desk — ${n} waiting for approval`),
  },
  'zh-CN': {
    noticeTitle: (tool: string) => `需要审批：${tool}`,
    show: '显示 Agent Desk',
    approvals: (n: number) => (n === 0 ? '没有等待审批的操作' : `查看审批（${n}）`),
    quit: '退出（任务暂停，下次启动时继续）',
    tooltip: (n: number) => (n === 0 ? 'Agent Desk' : `Agent Desk — ${n} 个操作等待审批`),
  },
} as const;

/** Longest notification body; OS notification centres cut longer ones anyway. */
const BODY_MAX = 180;

/** An OS notification for one approval request: what will happen, and why it asks. */
export function approvalNotice(approval: Approval, locale: MainLocale): { title: string; body: string } {
  const summary = approval.preview.summary.trim() || approval.tool;
  const body = approval.reason.trim() ? `${summary}\n${approval.reason.trim()}` : summary;
  return {
    title: TEXTS[locale].noticeTitle(approval.tool),
    body: body.length > BODY_MAX ? `${body.slice(0, BODY_MAX - 1)}…` : body,
  };
}

/** One tray menu entry, independent of Electron's MenuItem so it can be tested. */
export type TrayItem = { id: 'show' | 'approvals' | 'quit'; label: string; enabled: boolean } | { id: 'separator' };

/** The tray menu for the current number of pending approvals. */
export function trayMenuModel(pending: number, locale: MainLocale): { tooltip: string; items: TrayItem[] } {
  const text = TEXTS[locale];
  return {
    tooltip: text.tooltip(pending),
    items: [
      { id: 'show', label: text.show, enabled: true },
      { id: 'approvals', label: text.approvals(pending), enabled: pending > 0 },
      { id: 'separator' },
      { id: 'quit', label: text.quit, enabled: true },
    ],
  };
}

/** The window route that opens one approval's prompt (see the renderer's Shell routes). */
export function approvalRoute(rendererUrl: string, approvalId?: string): string {
  return approvalId ? `${rendererUrl}#/approval/${encodeURIComponent(approvalId)}` : `${rendererUrl}#/approvals`;
}
