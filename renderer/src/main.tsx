import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { TOKEN_STORAGE_KEY, takeToken } from './client/token.js';
import { connectIpc, type IpcBridge } from './client/ipcClient.js';
import { connectWs, rpcUrlFor } from './client/wsClient.js';
import { reconnectDelayMs, serverAnswers } from './client/reconnect.js';
import type { RuntimeClient } from './client/runtimeClient.js';
import { App } from './features/App.js';
import { StoreContext } from './features/useApp.js';
import { toLocale } from './i18n/index.js';
import { attachClient, createAppStore } from './stores/store.js';
import './styles.css';

const PREFS_KEY = 'agent-desk.prefs';
const saved = JSON.parse(localStorage.getItem(PREFS_KEY) ?? '{}') as { locale?: string; theme?: string };
const store = createAppStore({
  locale: toLocale(saved.locale ?? navigator.language),
  theme: saved.theme === 'dark' || (!saved.theme && matchMedia('(prefers-color-scheme: dark)').matches) ? 'dark' : 'light',
});

// Locale and theme follow the store onto <html> and into localStorage (never the token).
const applyPrefs = () => {
  const { locale, theme } = store.getState();
  document.documentElement.lang = locale;
  document.documentElement.dataset.theme = theme;
  localStorage.setItem(PREFS_KEY, JSON.stringify({ locale, theme }));
};
applyPrefs();
store.subscribe(applyPrefs);

let current: { client: RuntimeClient; detach: () => void } | undefined;
let generation = 0;

/** Drops the current connection without treating it as lost. */
function dropCurrent(): void {
  current?.detach();
  current?.client.close();
  current = undefined;
}

/**
 * Connects with `token`. A connection that drops is retried with backoff while the last data stays
 * on screen under a banner; once the server answers HTTP but refuses the token, the page asks for one.
 */
async function connect(token: string | undefined, attempt = 0): Promise<void> {
  const mine = ++generation;
  if (!token) return store.getState().setConnection('needs-token');
  if (attempt === 0 && store.getState().connection !== 'reconnecting') store.getState().setConnection('connecting');
  try {
    const client = await connectWs(rpcUrlFor(window.location), token);
    if (mine !== generation) return client.close(); // a newer token won meanwhile
    dropCurrent();
    const detach = await attachClient(store, client);
    current = { client, detach };
    sessionStorage.setItem(TOKEN_STORAGE_KEY, token);
    client.onClose(() => {
      if (current?.client !== client) return;
      store.getState().setConnection('reconnecting');
      void retry(token, mine, 0);
    });
  } catch (error) {
    if (mine !== generation) return;
    if (store.getState().connection === 'reconnecting' && !(await serverAnswers(window.location.origin)))
      return retry(token, mine, attempt + 1);
    sessionStorage.removeItem(TOKEN_STORAGE_KEY);
    dropCurrent();
    store.getState().setConnection('error', (error as Error).message);
  }
}

async function retry(token: string, mine: number, attempt: number): Promise<void> {
  await new Promise((resolve) => setTimeout(resolve, reconnectDelayMs(attempt)));
  if (mine === generation) await connect(token, attempt);
}

// A link with a new `#token=…` opened in this tab applies without a reload.
window.addEventListener('hashchange', () => {
  if (!/(^#|&)token=/.test(window.location.hash)) return;
  const token = takeToken(window.location, window.history, sessionStorage);
  window.dispatchEvent(new HashChangeEvent('hashchange')); // the router sees the scrubbed address
  if (token) void connect(token);
});

/** Inside the Electron window the preload exposes the IPC bridge; in a browser it is absent. */
const bridge = (window as unknown as { agentDesk?: IpcBridge }).agentDesk;

async function connectBridge(ipc: IpcBridge): Promise<void> {
  try {
    await attachClient(store, await connectIpc(ipc));
  } catch (error) {
    store.getState().setConnection('error', (error as Error).message);
  }
}

const root = document.getElementById('root');
if (!root) throw new Error('#root is missing from index.html');
createRoot(root).render(
  <StrictMode>
    <StoreContext.Provider value={store}>
      <App onToken={(token) => void connect(token)} />
    </StoreContext.Provider>
  </StrictMode>,
);
if (bridge) void connectBridge(bridge);
else void connect(takeToken(window.location, window.history, sessionStorage));
