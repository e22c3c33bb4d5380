import type { Approval } from '../../../../electron/contract/index.js';

/** What the page may do with the Notification API (`unsupported` where it has none, e.g. Electron's window: main notifies). */
export type NotificationPermissionState = 'granted' | 'denied' | 'default' | 'unsupported';

/** What to do with browser notifications after the pending approvals changed. */
export interface NotificationPlan {
  /** New approvals to announce. */
  show: Approval[];
  /** Approval ids whose notification should go: decided, expired, or answered elsewhere. */
  close: string[];
  /** Every pending approval id handled so far (announced, or seen while the user was looking). */
  known: Set<string>;
}

/**
 * One notification per approval, only while permitted and only while the user is not looking at
 * the page (the dialog already shows it then); an approval seen once is never announced later.
 */
export function planApprovalNotifications(
  pending: readonly Approval[],
  known: ReadonlySet<string>,
  context: { permission: NotificationPermissionState; attended: boolean },
): NotificationPlan {
  const pendingIds = new Set(pending.map((a) => a.id));
  const fresh = pending.filter((a) => !known.has(a.id));
  return {
    show: context.permission === 'granted' && !context.attended ? fresh : [],
    close: [...known].filter((id) => !pendingIds.has(id)),
    known: pendingIds,
  };
}
