import type { BrowserWindowConstructorOptions, WebPreferences } from 'electron';

/**
 * The window's Content-Security-Policy (also a meta tag in renderer/index.html): own scripts
 * and styles only, data: images for screenshots, no frames, no forms, no plugins.
 */
export const ELECTRON_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data: blob:",
  "connect-src 'self'",
  "font-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

/** Security-relevant web preferences of every window (ARCHITECTURE §8). */
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
