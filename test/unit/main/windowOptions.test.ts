import { describe, expect, it } from 'vitest';
import { isTrustedSender } from '../../../electron/main/ipcBridge.js';
import { ELECTRON_CSP, mainWindowOptions, secureWebPreferences } from '../../../electron/main/windowOptions.js';

describe('Electron main window security options', () => {
  it('isolates the page: context isolation, sandbox, no Node, no webview, web security on', () => {
    const options = mainWindowOptions('/app/preload/index.cjs');
    expect(options.webPreferences).toEqual(secureWebPreferences('/app/preload/index.cjs'));
    expect(options.webPreferences).toMatchObject({
      preload: '/app/preload/index.cjs',
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      experimentalFeatures: false,
      webviewTag: false,
      disableBlinkFeatures: 'Auxclick',
    });
    expect(options.webPreferences).not.toHaveProperty('enableBlinkFeatures');
    expect(options.show).toBe(false);
  });

  it('the CSP allows only the page itself', () => {
    expect(ELECTRON_CSP).toContain("default-src 'none'");
    expect(ELECTRON_CSP).toContain("script-src 'self'");
    expect(ELECTRON_CSP).not.toMatch(/unsafe-(inline|eval)/);
  });

  it('IPC is answered only for our own page', () => {
    const ours = 'app://agent-desk/index.html';
    expect(isTrustedSender('app://agent-desk/index.html#/tasks', ours)).toBe(true);
    expect(isTrustedSender('https://evil.example/index.html', ours)).toBe(false);
    expect(isTrustedSender('app://other/index.html', ours)).toBe(false);
    expect(isTrustedSender('app://agent-desk/other.html', ours)).toBe(false);
    expect(isTrustedSender(undefined, ours)).toBe(false);
    expect(isTrustedSender('not a url', ours)).toBe(false);
  });
});
