import { createContext, useCallback, useContext } from 'react';
import { useStore } from 'zustand';
import { type MessageKey, type ServerTextLike, translate, translateServerText } from '../i18n/index.js';
import type { AppState, AppStore } from '../stores/store.js';

/** Provides the one store to every feature. */
export const StoreContext = createContext<AppStore | undefined>(undefined);

/** Selects from the store (re-renders when the selection changes). */
export function useApp<T>(selector: (state: AppState) => T): T {
  const store = useContext(StoreContext);
  if (!store) throw new Error('StoreContext is missing');
  return useStore(store, selector);
}

/** The translate function for the current locale. */
export function useT(): (key: MessageKey, vars?: Record<string, string | number>) => string {
  const locale = useApp((s) => s.locale);
  return useCallback((key, vars) => translate(locale, key, vars), [locale]);
}

/**
 * Renders a server text in the current locale (contract `ServerText`); English readers get the
 * server's own English as it was sent, so the English UI never depends on the catalog copy.
 */
export function useServerText(): (text: ServerTextLike | undefined, english: string) => string {
  const locale = useApp((s) => s.locale);
  return useCallback((text, english) => (locale === 'en' ? english : translateServerText(locale, text, english)), [locale]);
}

/**
 * A person's name as shown: people's names as their provider gave them, the gateway's own token
 * (subject `local`) in the page's language.
 */
export function usePersonName(): (person: { subject: string; name: string } | undefined) => string {
  const t = useT();
  return useCallback((person) => (!person ? '' : person.subject === 'local' ? t('person.local') : person.name), [t]);
}
