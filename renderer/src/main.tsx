import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { TOKEN_STORAGE_KEY, takeToken } from './client/token.js';
import { connectIpc, type IpcBridge } from './client/ipcClient.js';
import { connectWs, rpcUrlFor } from './client/wsClient.js';
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

async function connect(token: string | undefined): Promise<void> {
  if (!token) return store.getState().setConnection('needs-token');
  store.getState().setConnection('connecting');
  try {
    await attachClient(store, await connectWs(rpcUrlFor(window.location), token));
    sessionStorage.setItem(TOKEN_STORAGE_KEY, token);
  } catch (error) {
    sessionStorage.removeItem(TOKEN_STORAGE_KEY);
    store.getState().setConnection('error', (error as Error).message);
  }
}

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
