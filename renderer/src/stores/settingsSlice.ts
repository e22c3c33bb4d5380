import type { Locale } from '../i18n/index.js';
import type { AppState } from './store.js';
import type { SliceSet } from './types.js';

/** Light or dark. */
export type Theme = 'light' | 'dark';
/** The connection to the runtime; `reconnecting`: it dropped, the last data stays on screen (marked stale) while it retries. */
export type ConnectionStatus = 'connecting' | 'connected' | 'reconnecting' | 'needs-token' | 'error';

/** UI settings and the connection state. */
export interface SettingsSlice {
  locale: Locale;
  theme: Theme;
  connection: ConnectionStatus;
  connectionError: string | undefined;
  setLocale(locale: Locale): void;
  setTheme(theme: Theme): void;
  setConnection(connection: ConnectionStatus, error?: string): void;
}

/** The settings slice creator; the shell persists locale and theme. */
export function createSettingsSlice(set: SliceSet<AppState>, initial: { locale: Locale; theme: Theme }): SettingsSlice {
  return {
    locale: initial.locale,
    theme: initial.theme,
    connection: 'connecting',
    connectionError: undefined,
    setLocale: (locale) => set({ locale }),
    setTheme: (theme) => set({ theme }),
    setConnection: (connection, error) => set({ connection, connectionError: error }),
  };
}
