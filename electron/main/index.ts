// Electron composition root: one window over the runtime, hosted in this main process.
import { app, BrowserWindow, ipcMain, net, protocol, session } from 'electron';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { openRuntime } from '../capabilities/composition/openRuntime.js';
import { RENDERER_DIST, resolveStatic } from '../capabilities/transports/webUi.js';
import { installIpcBridge } from './ipcBridge.js';
import { hardenContents, hardenSession } from './security.js';
import { mainWindowOptions } from './windowOptions.js';

const PRELOAD = fileURLToPath(new URL('../preload/index.cjs', import.meta.url));
/** The page is served from a privileged `app:` origin: module scripts do not load from file://, and 'self' needs an origin. */
const APP_SCHEME = 'app';
const RENDERER_URL = `${APP_SCHEME}://agent-desk/index.html`;
protocol.registerSchemesAsPrivileged([{ scheme: APP_SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true } }]);

/** Serves dist/renderer read-only under app://agent-desk/ (same path rules as the web mode). */
function serveRenderer(): void {
  protocol.handle(APP_SCHEME, (request) => {
    const url = new URL(request.url);
    const file = url.host === 'agent-desk' ? resolveStatic(RENDERER_DIST, url.pathname) : undefined;
    return file ? net.fetch(pathToFileURL(file).href) : new Response('not found', { status: 404 });
  });
}

/** Starts the app: single instance, hardened session, the runtime and its window. */
async function start(): Promise<void> {
  if (!app.requestSingleInstanceLock()) return app.quit();
  app.enableSandbox();
  await app.whenReady();
  hardenSession(session.defaultSession);
  serveRenderer();
  app.on('web-contents-created', (_event, contents) => hardenContents(contents, RENDERER_URL));

  const rt = openRuntime();
  rt.engine.recover();
  const options = mainWindowOptions(PRELOAD);
  // The critical flags are restated literally so static analysers (electronegativity) see them here.
  const window = new BrowserWindow({
    ...options,
    webPreferences: {
      ...options.webPreferences,
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      disableBlinkFeatures: 'Auxclick',
    },
  });
  const closeBridge = installIpcBridge({
    ipcMain,
    contents: window.webContents,
    rendererUrl: RENDERER_URL,
    dispatcher: rt.dispatcher,
    bus: rt.bus,
  });
  window.once('ready-to-show', () => window.show());
  app.on('second-instance', () => {
    if (window.isMinimized()) window.restore();
    window.focus();
  });
  app.on('window-all-closed', () => app.quit());
  // Steps in flight are recorded; closing the store leaves tasks resumable on the next start.
  app.on('will-quit', () => {
    closeBridge();
    rt.store.close();
  });
  await window.loadURL(RENDERER_URL);
}

void start();
