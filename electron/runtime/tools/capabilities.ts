import path from 'node:path';

/**
 * Capabilities that tiers share: what makes the router choose. A tool lists every one it
 * provides (a tool may provide several). A need served by several tools of one tier (reading a
 * page in the browser is `browser.navigate` then `browser.extract_text`) is declared by each
 * of them; the router offers the whole tier, and a fallback goes to the tool that takes the
 * capability's arguments (the first of the sequence), the model doing the rest with the tier's
 * tools it is offered.
 */
export const CAPABILITIES = {
  /** Read a web page or HTTP resource: http.request GET → an MCP fetch tool → the browser → the desktop. */
  webRead: 'web.read',
  /** Act on a page (click, fill, type, …): the browser tools → the desktop's Chromium through `computer`. */
  webInteract: 'web.interact',
  /** Files of the task workspace: the fs.* tools → an MCP filesystem server. */
  fileRead: 'file.read',
  fileWrite: 'file.write',
  fileList: 'file.list',
  fileDelete: 'file.delete',
  /** The task's desktop itself (its files and commands): only the desktop provides these. */
  desktopFileRead: 'desktop.file.read',
  desktopFileWrite: 'desktop.file.write',
  desktopExec: 'desktop.exec',
} as const;

/** How an argument of a shared capability carries over to a fallback tool. */
type ArgKind = 'value' | 'workspacePath';

/**
 * The arguments a fallback is given for each capability a call can fall back on: only these,
 * taken from the call's own. A capability absent here (`web.interact`: refs and coordinates do
 * not translate) never falls back at call time; the router offers its best available tier instead.
 */
export const FALLBACK_ARGS: Readonly<Record<string, Readonly<Record<string, ArgKind>>>> = {
  [CAPABILITIES.webRead]: { url: 'value' },
  [CAPABILITIES.fileRead]: { path: 'workspacePath' },
  [CAPABILITIES.fileWrite]: { path: 'workspacePath', content: 'value' },
  [CAPABILITIES.fileList]: { path: 'workspacePath' },
  [CAPABILITIES.fileDelete]: { path: 'workspacePath' },
};

/**
 * A call's arguments as a fallback of another tier receives them: the capability's own fields;
 * a workspace-relative path made absolute, since a server outside Agent Desk does not know the
 * task workspace (it then refuses a path outside what it may touch, instead of guessing).
 */
export function fallbackArgs(capability: string, args: Record<string, unknown>, workspace: string | undefined): Record<string, unknown> {
  const fields = FALLBACK_ARGS[capability] ?? {};
  const out: Record<string, unknown> = {};
  for (const [field, kind] of Object.entries(fields)) {
    const value = args[field];
    if (value === undefined) continue;
    out[field] = kind === 'workspacePath' && typeof value === 'string' && workspace !== undefined ? path.resolve(workspace, value) : value;
  }
  return out;
}
