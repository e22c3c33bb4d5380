import { useEffect, useMemo, useState } from 'react';
import { TopBar, type NavLink } from '../components/TopBar.js';
import { LOCALES, toLocale } from '../i18n/index.js';
import { pendingApprovals } from '../stores/approvalsSlice.js';
import { ApprovalModal } from './approvals/ApprovalModal.js';
import { ApprovalsInbox } from './approvals/ApprovalsInbox.js';
import { PendingBanner } from './approvals/PendingBanner.js';
import { useApprovalNotifications } from './approvals/useApprovalNotifications.js';
import { GrantsView } from './grants/GrantsView.js';
import { SchedulesView } from './schedules/SchedulesView.js';
import { SettingsView } from './settings/SettingsView.js';
import { TaskDetailView } from './task-detail/TaskDetailView.js';
import { NewTaskView } from './tasks/NewTaskView.js';
import { TaskListView } from './tasks/TaskListView.js';
import { ToolsView } from './tools/ToolsView.js';
import { TraceView } from './traces/TraceView.js';
import { useApp, useT } from './useApp.js';

const PAGES = ['new', 'approvals', 'grants', 'tools', 'schedules', 'settings'] as const;
/**
 * A hash route: `#/tasks`, `#/new`, `#/approvals`, `#/grants`, `#/tools`, `#/schedules`, `#/settings`,
 * `#/task/<id>`, `#/trace/<id>`, and `#/approval/<id>` (the inbox with that prompt open; the
 * desktop app's notifications link there).
 */
type Route = { view: 'tasks' | (typeof PAGES)[number] } | { view: 'task' | 'trace' | 'approval'; id: string };

function parseRoute(hash: string): Route {
  const [, view, id] = hash.replace(/^#/, '').split('/');
  if ((view === 'task' || view === 'trace' || view === 'approval') && id) return { view, id: decodeURIComponent(id) };
  const page = PAGES.find((p) => p === view);
  if (page) return { view: page };
  return { view: 'tasks' };
}

function useHashRoute(): Route {
  const [hash, setHash] = useState(window.location.hash);
  useEffect(() => {
    const onChange = () => setHash(window.location.hash);
    window.addEventListener('hashchange', onChange);
    return () => window.removeEventListener('hashchange', onChange);
  }, []);
  return parseRoute(hash);
}

/** An approvals-only connection (it may not read tasks) has one page: every address shows the inbox. */
function reachable(route: Route, approvalsOnly: boolean): Route {
  return approvalsOnly && route.view !== 'approval' ? { view: 'approvals' } : route;
}

const LOCALE_NAMES: Record<(typeof LOCALES)[number], string> = { en: 'English', 'zh-CN': '简体中文' };

/** The connected app: top bar, the routed view and the approval modal. */
export function Shell() {
  const t = useT();
  const approvalsOnly = useApp((s) => s.listErrorCode === 'forbidden');
  const route = reachable(useHashRoute(), approvalsOnly);
  const locale = useApp((s) => s.locale);
  const theme = useApp((s) => s.theme);
  const setLocale = useApp((s) => s.setLocale);
  const setTheme = useApp((s) => s.setTheme);
  const me = useApp((s) => s.me);
  const approvals = useApp((s) => s.approvals);
  const pendingCount = useMemo(() => pendingApprovals(approvals).length, [approvals]);
  const connection = useApp((s) => s.connection);
  const appTitle = t('app.title');
  // The tab's title counts waiting approvals, so they show in a background tab too.
  useEffect(() => {
    document.title = pendingCount ? `(${pendingCount}) ${appTitle}` : appTitle;
  }, [pendingCount, appTitle]);
  useApprovalNotifications();
  const links: NavLink[] = [
    { href: '#/tasks', label: t('nav.tasks'), active: route.view === 'tasks' },
    { href: '#/new', label: t('nav.new'), active: route.view === 'new' },
    {
      href: '#/approvals',
      label: t('nav.approvals'),
      active: route.view === 'approvals' || route.view === 'approval',
      badge: pendingCount,
    },
    { href: '#/grants', label: t('nav.grants'), active: route.view === 'grants' },
    { href: '#/tools', label: t('nav.tools'), active: route.view === 'tools' },
    { href: '#/schedules', label: t('nav.schedules'), active: route.view === 'schedules' },
    { href: '#/settings', label: t('nav.settings'), active: route.view === 'settings' },
  ];

  return (
    <>
      <TopBar
        title={t('app.title')}
        links={approvalsOnly ? links.filter((link) => link.href === '#/approvals') : links}
        locale={locale}
        locales={LOCALES.map((l) => ({ value: l, label: LOCALE_NAMES[l] }))}
        languageLabel={t('settings.language')}
        onLocale={(value) => setLocale(toLocale(value))}
        themeLabel={t('settings.theme')}
        themeToggleLabel={theme === 'dark' ? t('theme.light') : t('theme.dark')}
        onToggleTheme={() => setTheme(theme === 'dark' ? 'light' : 'dark')}
        {...(me && me.subject !== 'local' && { signedInAs: t('conn.signedInAs', { name: me.name }) })}
      />
      {connection === 'reconnecting' && (
        <div className="conn-banner" role="alert" data-testid="connection-lost">
          {t('conn.lost')}
        </div>
      )}
      <main className={connection === 'reconnecting' ? 'stale' : undefined} aria-busy={connection === 'reconnecting'}>
        {route.view !== 'approvals' && route.view !== 'approval' && <PendingBanner />}
        {route.view === 'tasks' && <TaskListView />}
        {route.view === 'new' && <NewTaskView onCreated={(id) => (window.location.hash = `#/task/${id}`)} />}
        {route.view === 'approvals' && <ApprovalsInbox />}
        {route.view === 'approval' && <ApprovalsInbox openId={route.id} />}
        {route.view === 'task' && <TaskDetailView taskId={route.id} />}
        {route.view === 'trace' && <TraceView taskId={route.id} />}
        {route.view === 'grants' && <GrantsView />}
        {route.view === 'tools' && <ToolsView />}
        {route.view === 'schedules' && <SchedulesView />}
        {route.view === 'settings' && <SettingsView />}
      </main>
      <ApprovalModal />
    </>
  );
}
