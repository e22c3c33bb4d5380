/** Where the page keeps the gateway token for this tab only (cleared when the tab closes). */
export const TOKEN_STORAGE_KEY = 'agent-desk.token';

/**
 * The gateway token: taken from `#token=…` (a fragment never reaches the server or its logs),
 * moved into sessionStorage and scrubbed from the address bar; else the one stored earlier.
 */
export function takeToken(location: Location, history: History, storage: Storage): string | undefined {
  const fromHash = new URLSearchParams(location.hash.replace(/^#/, '')).get('token');
  if (fromHash) {
    storage.setItem(TOKEN_STORAGE_KEY, fromHash);
    history.replaceState(null, '', location.pathname + location.search);
    return fromHash;
  }
  return storage.getItem(TOKEN_STORAGE_KEY) ?? undefined;
}
