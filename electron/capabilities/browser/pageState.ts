import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { writeFileAtomicSync } from '../../runtime/secrets/atomicFile.js';
import type { BrowserSession } from './browserSession.js';

// A task that waits for a person (an approval, a question, a pause) may resume in another
// process: its page is saved when it starts waiting and restored before its next browser action,
// so an approved click lands on the element the approval showed, not on a blank page.

const FieldSchema = z.object({ path: z.string(), value: z.string().optional(), checked: z.boolean().optional() });
const SavedPageSchema = z.object({
  version: z.literal(1),
  url: z.string(),
  allowedHosts: z.array(z.string()),
  /** Playwright's storage state: cookies and each origin's localStorage. */
  storage: z.object({
    cookies: z.array(z.record(z.string(), z.unknown())),
    origins: z.array(z.object({ origin: z.string(), localStorage: z.array(z.object({ name: z.string(), value: z.string() })) })),
  }),
  /** Form fields the agent changed (typed text, ticks, choices), by a CSS path from the document. */
  fields: z.array(FieldSchema),
});
type SavedPage = z.infer<typeof SavedPageSchema>;

/** Collects changed form fields with a CSS path each (runs in the page). */
const READ_FIELDS = `(() => {
  const pathOf = (el) => {
    const parts = [];
    for (let node = el; node && node.nodeType === 1 && node !== document.documentElement; node = node.parentElement) {
      const tag = node.tagName.toLowerCase();
      const same = node.parentElement ? [...node.parentElement.children].filter((c) => c.tagName === node.tagName) : [node];
      parts.unshift(same.length > 1 ? tag + ':nth-of-type(' + (same.indexOf(node) + 1) + ')' : tag);
    }
    return 'html > ' + parts.join(' > ');
  };
  const out = [];
  for (const el of document.querySelectorAll('input, textarea, select')) {
    if (el.type === 'password' || el.type === 'file' || el.type === 'hidden') continue;
    if (el.type === 'checkbox' || el.type === 'radio') { if (el.checked !== el.defaultChecked) out.push({ path: pathOf(el), checked: el.checked }); continue; }
    const initial = el.tagName === 'SELECT' ? [...el.options].find((o) => o.defaultSelected)?.value ?? el.options[0]?.value : el.defaultValue;
    if (el.value !== initial) out.push({ path: pathOf(el), value: el.value });
  }
  return out;
})()`;

/** Puts saved field values back and tells the page's scripts, as typing would (runs in the page). */
const WRITE_FIELDS = `(fields) => {
  for (const f of fields) {
    const el = document.querySelector(f.path);
    if (!el) continue;
    if (f.checked !== undefined) el.checked = f.checked; else el.value = f.value;
    el.dispatchEvent(new Event('input', { bubbles: true }));
    el.dispatchEvent(new Event('change', { bubbles: true }));
  }
}`;

/** Sets each saved origin's localStorage once, before the page's own scripts run (an init script). */
const SEED_STORAGE = `(origins) => {
  try {
    if (sessionStorage.getItem('agent-desk:restored')) return;
    const mine = origins.find((o) => o.origin === location.origin);
    for (const item of mine ? mine.localStorage : []) localStorage.setItem(item.name, item.value);
    sessionStorage.setItem('agent-desk:restored', '1');
  } catch {}
}`;

/**
 * Where the saved pages of a data folder live (one file per task workspace, 0600). Secrets never
 * reach the disk: a cookie, storage item or field that holds a known secret value is not saved
 * (`holdsSecret` is the runtime's redactor), and a page whose address holds one is not saved at all.
 */
export class PageStates {
  constructor(
    private readonly dir: string,
    private readonly holdsSecret: (text: string) => boolean = () => false,
  ) {}

  private fileOf(workspace: string): string {
    return path.join(this.dir, `${createHash('sha256').update(workspace).digest('hex').slice(0, 24)}.json`);
  }

  /** Saves the session's page (nothing for a blank page, or one whose address holds a secret). */
  async save(session: BrowserSession): Promise<void> {
    const url = session.page.url();
    if (!/^https?:/.test(url) || this.holdsSecret(url)) return;
    const storage = (await session.context.storageState()) as SavedPage['storage'];
    const fields = (await session.page.evaluate(READ_FIELDS).catch(() => [])) as SavedPage['fields'];
    const clean = (text: unknown) => !this.holdsSecret(typeof text === 'string' ? text : JSON.stringify(text));
    const saved: SavedPage = {
      version: 1,
      url,
      allowedHosts: session.allowedHosts(),
      storage: {
        cookies: storage.cookies.filter(clean),
        origins: storage.origins.map((o) => ({ origin: o.origin, localStorage: o.localStorage.filter(clean) })),
      },
      fields: fields.filter(clean),
    };
    mkdirSync(this.dir, { recursive: true, mode: 0o700 });
    writeFileAtomicSync(this.fileOf(session.workspace), Buffer.from(JSON.stringify(saved)), { mode: 0o600 });
  }

  /** Restores a saved page into a fresh session; true when there was one. A broken file is dropped. */
  async restore(session: BrowserSession): Promise<boolean> {
    const file = this.fileOf(session.workspace);
    if (!existsSync(file)) return false;
    const parsed = SavedPageSchema.safeParse(readJson(file));
    if (!parsed.success) {
      this.forget(session.workspace);
      return false;
    }
    const saved = parsed.data;
    for (const host of saved.allowedHosts) session.allowHost(host);
    await session.context.addCookies(saved.storage.cookies as unknown as Parameters<BrowserSession['context']['addCookies']>[0]);
    await session.page.addInitScript(`(${SEED_STORAGE})(${JSON.stringify(saved.storage.origins)})`);
    await session.page.goto(saved.url);
    await session.page.evaluate(`(${WRITE_FIELDS})(${JSON.stringify(saved.fields)})`);
    await session.refresh();
    return true;
  }

  /** Drops a task's saved page (its task ended). */
  forget(workspace: string): void {
    rmSync(this.fileOf(workspace), { force: true });
  }
}

function readJson(file: string): unknown {
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return undefined;
  }
}
