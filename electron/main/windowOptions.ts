import type { BrowserWindowConstructorOptions, WebPreferences } from 'electron';
import { WEB_UI_CSP } from '../capabilities/transports/webUi.js';

/** The window's Content-Security-Policy: the web UI's own (also a meta tag in renderer/index.html). */
export const ELECTRON_CSP = WEB_UI_CSP;

/** Security-relevant web preferences of every window (docs/architecture.md, "Security at the edges"). */
export function secureWebPreferences(preloadPath: string): WebPreferences {
  return {
    preload: preloadPath,
    contextIsolation: true,
    sandbox: true,
    nodeIntegration: false,
    nodeIntegrationInWorker: false,
    nodeIntegrationInSubFrames: false,
    webSecurity: true,
    allowRunningInsecureContent: false,
    experimentalFeatures: false,
    // Middle-click would open links in new windows; the feature is off altogether.
    disableBlinkFeatures: 'Auxclick',
    webviewTag: false,
    navigateOnDragDrop: false,
    spellcheck: false,
    safeDialogs: true,
  };
}

/** The main window's options. */
export function mainWindowOptions(preloadPath: string): BrowserWindowConstructorOptions {
  return {
    width: 1280,
    height: 860,
    minWidth: 800,
    minHeight: 560,
    title: 'Agent Desk',
    show: false, // shown on ready-to-show, so no blank flash
    webPreferences: secureWebPreferences(preloadPath),
  };
}
