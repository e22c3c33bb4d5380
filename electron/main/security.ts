import type { Session, WebContents } from 'electron';
import { ELECTRON_CSP } from './windowOptions.js';

/** Blocks every navigation away from our page, new windows, webviews and permission prompts. */
export function hardenContents(contents: WebContents, rendererUrl: string): void {
  const page = new URL(rendererUrl);
  contents.on('will-navigate', (event, url) => {
    const target = new URL(url);
    // Only in-page hash routes of our own document are navigations we allow.
    if (target.protocol !== page.protocol || target.pathname !== page.pathname) event.preventDefault();
  });
  contents.on('will-redirect', (event) => event.preventDefault());
  contents.on('will-attach-webview', (event) => event.preventDefault());
  contents.setWindowOpenHandler(() => ({ action: 'deny' }));
}

/** Session-wide defaults: CSP header on every response, no permission ever granted. */
export function hardenSession(session: Session): void {
  session.setPermissionRequestHandler((_contents, _permission, callback) => callback(false));
  session.setPermissionCheckHandler(() => false);
  session.webRequest.onHeadersReceived((details, callback) => {
    callback({ responseHeaders: { ...details.responseHeaders, 'Content-Security-Policy': [ELECTRON_CSP] } });
  });
}
