import type { Browser, BrowserContext, Download, Locator, Page } from 'playwright-core';
import type { HeldEffect } from '../../contract/index.js';
import { describeEffects, EffectHeldError } from '../../runtime/policy/effects/heldEffects.js';
import { ToolError } from '../../runtime/tools/types.js';
import { saveDownloadInWorkspace } from './downloads.js';
import { PAGE_WORKER_SCRIPT } from './workerGuard.js';
import type { EffectGate } from '../../runtime/policy/effects/effectGate.js';
import { NetworkScreen, type BlockedRequest, type BrowserPolicy } from './networkScreen.js';
import { clickRisk, PAGE_MODEL_SCRIPT, REF_ATTRIBUTE, type PageElement, type PageModel } from './pageModel.js';

export type { BlockedRequest, BrowserPolicy } from './networkScreen.js';

/** How a tool names the element it acts on: a snapshot ref, its visible text, role + name, or a CSS selector. */
export interface ElementTarget {
  ref?: string;
  text?: string;
  role?: string;
  name?: string;
  selector?: string;
}

/** A risky element on the current page, with a screenshot that marks it (for approvals). */
interface RiskyMark {
  screenshot: string;
}

const ACTION_TIMEOUT_MS = 15_000;
/**
 * A service worker would see (and could replay) requests outside the task's routing; the context
 * option `serviceWorkers: 'block'` keeps them from running, and this makes registration fail loudly.
 */
const NO_SERVICE_WORKERS = `if (navigator.serviceWorker) navigator.serviceWorker.register = () =>
  Promise.reject(new DOMException('service workers are blocked in the task browser', 'SecurityError'));`;
/** An action is over when the page sent nothing for this long (its requests reached the gate). */
const QUIET_MS = 150;
const MAX_SETTLE_MS = 1500;

/** Every task context: downloads caught (and confined), no service workers, one viewport. */
export const CONTEXT_OPTIONS = { acceptDownloads: true, serviceWorkers: 'block', viewport: { width: 1280, height: 800 } } as const;

/**
 * One task's browser: its own context (no cookies or storage shared with other tasks), one page,
 * an allowlist enforced on every request, downloads saved into the task workspace, and the
 * latest page model so click targets can be classified before they are clicked.
 */
export class BrowserSession {
  private readonly downloadsLog: string[] = [];
  private readonly network: NetworkScreen;
  /** The element the running action targets (outlined in an approval's screenshot). */
  actedOn: string | undefined;
  private model: PageModel = { url: 'about:blank', title: '', elements: [] };
  private marks = new Map<string, RiskyMark>();

  private constructor(
    readonly context: BrowserContext,
    readonly page: Page,
    readonly workspace: string,
    policy: BrowserPolicy,
    /** False for a page in a shared persistent profile: closing the task closes only its page. */
    private readonly ownsContext: boolean,
  ) {
    this.network = new NetworkScreen(page, policy);
  }

  /** Opens an isolated context for a task workspace. */
  static async open(browser: Browser, workspace: string, policy: BrowserPolicy): Promise<BrowserSession> {
    return BrowserSession.attach(await browser.newContext(CONTEXT_OPTIONS), workspace, policy, true);
  }

  /**
   * Opens a task's page in the shared persistent context of a configured profile: cookies and
   * storage persist across tasks (the point of a profile), requests are still screened per page.
   */
  static openShared(context: BrowserContext, workspace: string, policy: BrowserPolicy): Promise<BrowserSession> {
    return BrowserSession.attach(context, workspace, policy, false);
  }

  private static async attach(context: BrowserContext, workspace: string, policy: BrowserPolicy, ownsContext: boolean) {
    const page = await context.newPage();
    page.setDefaultTimeout(ACTION_TIMEOUT_MS);
    const session = new BrowserSession(context, page, workspace, policy, ownsContext);
    await session.network.attach(ownsContext ? context : page, context);
    await (ownsContext ? context : page).addInitScript(NO_SERVICE_WORKERS);
    await (ownsContext ? context : page).addInitScript(PAGE_WORKER_SCRIPT);
    // A page it opened would escape page-level screening, so a shared profile gets no popups.
    if (!ownsContext) page.on('popup', (popup) => void popup.close().catch(() => undefined));
    page.on('download', (download) => void session.saveDownload(download));
    return session;
  }

  /** The page model from the last action (refs, roles, names). */
  get lastModel(): PageModel {
    return this.model;
  }

  /** Requests blocked so far (newest last). */
  get blocked(): readonly BlockedRequest[] {
    return this.network.blocked;
  }

  /** The effect gate every state-changing request of this task's pages passes. */
  get effects(): EffectGate {
    return this.network.effects;
  }

  /** Workspace-relative paths of downloads saved so far. */
  get downloads(): readonly string[] {
    return this.downloadsLog;
  }

  /** Hosts the gate allowed this task to navigate to (saved with the page while the task waits). */
  allowedHosts(): string[] {
    return this.network.extraHosts;
  }

  /** Lets the page reach a host the gate allowed this task to navigate to. */
  allowHost(host: string): void {
    this.network.allowHost(host);
  }

  /** The origin of the page the agent acts on ('null' for about:blank). */
  pageOrigin(): string {
    try {
      return new URL(this.page.url()).origin;
    } catch {
      return 'null';
    }
  }

  /** Waits until the page loaded and sent nothing for a moment, so an action's requests have reached the gate. */
  async settle(): Promise<void> {
    await this.page.waitForLoadState('load').catch(() => undefined);
    const started = Date.now();
    do await new Promise((resolve) => setTimeout(resolve, QUIET_MS));
    while (Date.now() - this.network.lastActivityAt < QUIET_MS && Date.now() - started < MAX_SETTLE_MS);
  }

  /** The typed error for effects the gate held during `action`: method, URL, masked fields, the acted-on element outlined. */
  async heldError(effects: readonly HeldEffect[], action: string): Promise<EffectHeldError> {
    const style = this.actedOn
      ? `[${REF_ATTRIBUTE}="${this.actedOn}"]{outline:4px solid #e11d48 !important;outline-offset:2px !important}`
      : '';
    const png = await this.page.screenshot({ type: 'png', style }).catch(() => undefined);
    const risk = effects.find((e) => e.risk === 'payment')?.risk ?? effects[0]!.risk;
    const why = [...new Set(effects.flatMap((e) => e.reasons))].join('; ');
    return new EffectHeldError(effects, {
      summary: `${action} on ${this.page.url()}: the page sent ${describeEffects(effects)} — ${risk}: ${why}`,
      body: JSON.stringify(effects, null, 2),
      ...(png && { screenshot: png.toString('base64') }),
      effects: [...effects],
    });
  }

  /** The element a target names in the last page model (undefined for selectors or stale targets). */
  findInModel(target: ElementTarget): PageElement | undefined {
    const els = this.model.elements;
    if (target.ref !== undefined) return els.find((e) => e.ref === target.ref);
    if (target.role !== undefined) return els.find((e) => e.role === target.role && (target.name === undefined || e.name === target.name));
    const text = target.text?.trim();
    if (text !== undefined)
      return (
        els.find((e) => e.name === text || e.text === text) ?? els.find((e) => e.role !== 'heading' && (e.text ?? e.name).includes(text))
      );
    return undefined;
  }

  /** The marked screenshot prepared for a risky element (PNG, base64). */
  markedScreenshot(ref: string): string | undefined {
    return this.marks.get(ref)?.screenshot;
  }

  /** A Playwright locator for a target; refs and model matches resolve to the exact element. */
  locate(target: ElementTarget): Locator {
    const known = this.findInModel(target);
    if (known) return this.page.locator(`[${REF_ATTRIBUTE}="${known.ref}"]`);
    if (target.ref !== undefined) throw new ToolError(`no element with ref "${target.ref}" on ${this.page.url()}; take a new snapshot`);
    if (target.role !== undefined)
      return this.page.getByRole(target.role as Parameters<Page['getByRole']>[0], { name: target.name ?? '', exact: true }).first();
    if (target.text !== undefined) return this.page.getByText(target.text, { exact: true }).first();
    if (target.selector !== undefined) return this.page.locator(target.selector).first();
    throw new ToolError('the target names no element: give ref, text, role (+ name) or selector');
  }

  /** Describes the element a locator found, in the same terms as the page model. */
  async describe(locator: Locator): Promise<PageElement> {
    const ref = await locator.evaluate((el, attr) => el.getAttribute(attr), REF_ATTRIBUTE).catch(() => null);
    if (ref === null) await this.refresh();
    const refNow = ref ?? (await locator.evaluate((el, attr) => el.getAttribute(attr), REF_ATTRIBUTE));
    const found = this.model.elements.find((e) => e.ref === refNow);
    if (!found) throw new ToolError('the target element is not visible on the page');
    return found;
  }

  /**
   * Re-reads the page model after an action; for every payment/delete/send element it also takes
   * a screenshot with that element outlined, so an approval can show exactly what would be clicked.
   */
  async refresh(): Promise<PageModel> {
    await this.page.waitForLoadState('load').catch(() => undefined);
    this.model = (await this.page.evaluate(`(${PAGE_MODEL_SCRIPT})(${JSON.stringify(REF_ATTRIBUTE)})`)) as PageModel;
    const marks = new Map<string, RiskyMark>();
    for (const el of this.model.elements) {
      if (clickRisk(el).risk === 'write' || el.role === 'heading') continue;
      const screenshot = await this.page
        .screenshot({
          type: 'png',
          style: `[${REF_ATTRIBUTE}="${el.ref}"]{outline:4px solid #e11d48 !important;outline-offset:2px !important}`,
        })
        .catch(() => undefined);
      if (screenshot) marks.set(el.ref, { screenshot: screenshot.toString('base64') });
    }
    this.marks = marks;
    return this.model;
  }

  /** Blocked main-frame navigations since `index` in the blocked log, as a ToolError (or nothing). */
  navigationBlockedSince(index: number): ToolError | undefined {
    // Held effects are the effect gate's to report (as an approval), not a failed navigation.
    const hit = this.network.blocked.slice(index).find((b) => b.navigation && !b.effect);
    return hit && new ToolError(`navigation to ${hit.url} blocked: ${hit.reason}`, false, 'browser_blocked');
  }

  /** Closes the context (cookies, storage and pages go with it), or only the page in a shared profile. */
  async close(): Promise<void> {
    await (this.ownsContext ? this.context.close() : this.page.close()).catch(() => undefined);
  }

  private async saveDownload(download: Download): Promise<void> {
    const saved = await saveDownloadInWorkspace(download, this.workspace);
    if (saved) this.downloadsLog.push(saved);
  }
}
