// Electron composition root: one window over the runtime, hosted in this main process.
import { app, BrowserWindow, ipcMain, net, protocol, safeStorage, session, shell } from 'electron';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { openRuntime, type ProductRuntime } from '../capabilities/composition/openRuntime.js';
import { connectConfiguredMcpServers } from '../capabilities/mcp/mcpModule.js';
import { RENDERER_DIST, resolveStatic } from '../capabilities/transports/webUi.js';
import { resolveHome } from '../runtime/config.js';
import { installDesktopShell } from './desktopShell.js';
import { installIpcBridge } from './ipcBridge.js';
import { mainLocale } from './notices.js';
import { SafeStorageSecretStore, safeStorageUsable } from './safeStorageSecretStore.js';
import { hardenContents, hardenSession } from './security.js';
import { runtimeShutdownParts, shutdownRuntime, takePausedAtQuit } from './shutdown.js';
import { mainWindowOptions } from './windowOptions.js';

const PRELOAD = fileURLToPath(new URL('../preload/index.cjs', import.meta.url));
/** The page is served from a privileged `app:` origin: module scripts do not load from file://, and 'self' needs an origin. */
const APP_SCHEME = 'app';
const RENDERER_URL = `${APP_SCHEME}://agent-desk/index.html`;
/** How long quitting waits for working runs to reach a step boundary before leaving them to recovery. */
const QUIT_GRACE_MS = 10_000;
protocol.registerSchemesAsPrivileged([{ scheme: APP_SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true } }]);

/** Serves dist/renderer read-only under app://agent-desk/ (same path rules as the web mode). */
function serveRenderer(): void {
  protocol.handle(APP_SCHEME, (request) => {
    const url = new URL(request.url);
    const file = url.host === 'agent-desk' ? resolveStatic(RENDERER_DIST, url.pathname) : undefined;
    return file ? net.fetch(pathToFileURL(file).href) : new Response('not found', { status: 404 });
  });
}

/** The runtime with provider keys in OS storage when it really protects them (else the runtime's own encrypted file). */
function openAppRuntime(): Promise<ProductRuntime> {
  const home = resolveHome();
  const secrets = safeStorageUsable(safeStorage, process.platform) ? new SafeStorageSecretStore(home, safeStorage) : undefined;
  // A long-lived process like `serve`: the warm sandbox pool fills now.
  // An MCP server's OAuth consent opens in the user's browser (http(s) only); it comes back to the runtime's loopback listener.
  // The scheme is checked just above, which is what electronegativity's open-external check asks for.
  const openUrl = (url: URL): Promise<void> =>
    /^https?:$/.test(url.protocol)
      ? shell.openExternal(url.href) /* eng-disable OPEN_EXTERNAL_JS_CHECK */
      : Promise.reject(new Error(`not opening ${url.protocol} URL`));
  return openRuntime('full', { warmSandboxes: true, watchStore: true, openUrl, ...(secrets ? { secrets } : {}) });
}

/** Starts the app: single instance, hardened session, the runtime and its window. */
async function start(): Promise<void> {
  if (!app.requestSingleInstanceLock()) return app.quit();
  app.enableSandbox();
  await app.whenReady();
  hardenSession(session.defaultSession);
  serveRenderer();
  app.on('web-contents-created', (_event, contents) => hardenContents(contents, RENDERER_URL));

  const rt = await openAppRuntime();
  const home = rt.home;
  // Servers connect in the background: a slow one must not hold back the window, recovery or cron.
  void connectConfiguredMcpServers(rt.mcp?.manager).catch((error: Error) => console.error(`MCP servers: ${error.message}`));
  await rt.engine.recover();
  // Tasks the last quit paused carry on; tasks a person paused stay paused.
  for (const id of await takePausedAtQuit(home, async (taskId) => (await rt.store.tasks.get(taskId))?.state)) {
    try {
      await rt.engine.resume(id);
    } catch (error) {
      console.error(`Could not resume ${id}: ${(error as Error).message}`); // e.g. another process runs it now
    }
  }
  const scheduler = rt.scheduler;
  scheduler.start();

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
  const closeShell = installDesktopShell({
    window,
    rendererUrl: RENDERER_URL,
    bus: rt.bus,
    locale: mainLocale(app.getLocale()),
    pending: await rt.approvals.list({ status: 'pending' }),
    quit: () => app.quit(),
  });
  window.once('ready-to-show', () => window.show());
  app.on('second-instance', () => {
    if (window.isMinimized()) window.restore();
    window.show();
    window.focus();
  });
  app.on('window-all-closed', () => app.quit());

  let quitting = false;
  app.on('will-quit', (event) => {
    if (quitting) return;
    quitting = true;
    event.preventDefault(); // quit again once the runtime is closed
    closeShell();
    void shutdownRuntime(runtimeShutdownParts(rt, scheduler, closeBridge), QUIT_GRACE_MS).finally(() => app.exit(0));
  });
  await window.loadURL(RENDERER_URL);
}

void start();
