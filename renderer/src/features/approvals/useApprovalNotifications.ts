import { useEffect, useMemo, useRef } from 'react';
import { pendingApprovals } from '../../stores/approvalsSlice.js';
import { useApp, useServerText, useT } from '../useApp.js';
import { planApprovalNotifications, type NotificationPermissionState } from './approvalNotifications.js';

/** The page's Notification permission; `unsupported` without the API or inside Electron, whose main process notifies. */
export function notificationPermission(): NotificationPermissionState {
  if (typeof Notification === 'undefined' || 'agentDesk' in window) return 'unsupported';
  return Notification.permission;
}

/** The user is looking at this tab: then the dialog is the notice. */
const attended = () => document.visibilityState === 'visible' && document.hasFocus();

/** Browser notifications while approvals wait: one per approval, closed once it is decided; a click opens it. */
export function useApprovalNotifications(): void {
  const t = useT();
  const serverText = useServerText();
  const approvals = useApp((s) => s.approvals);
  const tasks = useApp((s) => s.tasks);
  const pending = useMemo(() => pendingApprovals(approvals), [approvals]);
  const known = useRef<Set<string>>(new Set());
  const shown = useRef<Map<string, Notification>>(new Map());

  useEffect(() => {
    const plan = planApprovalNotifications(pending, known.current, { permission: notificationPermission(), attended: attended() });
    known.current = plan.known;
    for (const id of plan.close) {
      shown.current.get(id)?.close();
      shown.current.delete(id);
    }
    for (const approval of plan.show) {
      const task = tasks[approval.taskId]?.title ?? approval.taskId;
      const note = new Notification(t('approval.title', { tool: approval.tool }), {
        body: t('notify.body', { task, summary: serverText(approval.preview.summaryText, approval.preview.summary) }),
        tag: `approval-${approval.id}`,
        requireInteraction: true,
      });
      note.onclick = () => {
        window.focus();
        window.location.hash = `#/approval/${encodeURIComponent(approval.id)}`;
        note.close();
      };
      shown.current.set(approval.id, note);
    }
  }, [pending, tasks, t, serverText]);

  useEffect(() => () => shown.current.forEach((note) => note.close()), []);
}
