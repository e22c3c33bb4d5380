import { Menu, Notification, Tray, nativeImage, type BrowserWindow } from 'electron';
import type { Approval, EventFrame } from '../contract/index.js';
import type { EventBus } from '../runtime/gateway/index.js';
import { approvalNotice, approvalRoute, trayMenuModel, type MainLocale } from './notices.js';
import { TRAY_ICON_DATA_URL } from './trayIcon.js';

/** What the tray and notifications need from main. */
export interface DesktopShellOptions {
  window: BrowserWindow;
  rendererUrl: string;
  bus: EventBus;
  locale: MainLocale;
  /** Pending approvals at start-up (later ones arrive as events). */
  pending: readonly Approval[];
  quit: () => void;
}

/**
 * Thin Electron glue over notices.ts: a tray whose menu counts pending approvals, and an OS
 * notification per approval request; clicking it brings the window up on that approval.
 */
export function installDesktopShell(options: DesktopShellOptions): () => void {
  const { window, rendererUrl, locale } = options;
  const pending = new Set(options.pending.map((a) => a.id));
  const tray = new Tray(nativeImage.createFromDataURL(TRAY_ICON_DATA_URL));

  const reveal = (approvalId?: string) => {
    if (window.isDestroyed()) return;
    if (window.isMinimized()) window.restore();
    window.show();
    window.focus();
    // Same document, new fragment: the page's router opens the approval without reloading.
    void window.loadURL(approvalRoute(rendererUrl, approvalId));
  };
  const refreshTray = () => {
    const model = trayMenuModel(pending.size, locale);
    tray.setToolTip(model.tooltip);
    const click = { show: () => reveal(), approvals: () => reveal([...pending][0]), quit: options.quit };
    tray.setContextMenu(
      Menu.buildFromTemplate(
        model.items.map((item) =>
          item.id === 'separator' ? { type: 'separator' as const } : { label: item.label, enabled: item.enabled, click: click[item.id] },
        ),
      ),
    );
  };
  const onApproval = (frame: EventFrame) => {
    const approval = frame.data as Approval;
    if (approval.status === 'pending') pending.add(approval.id);
    else pending.delete(approval.id);
    refreshTray();
    if (frame.event !== 'approval.requested' || approval.status !== 'pending' || !Notification.isSupported()) return;
    const notice = new Notification(approvalNotice(approval, locale));
    notice.on('click', () => reveal(approval.id));
    notice.show();
  };

  tray.on('click', () => reveal());
  refreshTray();
  const off = options.bus.on({ events: ['approval.requested', 'approval.resolved'] }, onApproval, { elsewhere: true });
  return () => {
    off();
    tray.destroy();
  };
}
