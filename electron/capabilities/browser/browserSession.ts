import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Browser, BrowserContext, Download, Locator, Page, Route } from 'playwright-core';
import { hostAllowed, type HostPattern } from '../../runtime/policy/hostPattern.js';
import { ToolError } from '../../runtime/tools/types.js';
import { clickRisk, PAGE_MODEL_SCRIPT, REF_ATTRIBUTE, type PageElement, type PageModel } from './pageModel.js';

/** How a tool names the element it acts on: a snapshot ref, its visible text, role + name, or a CSS selector. */
export interface ElementTarget {
  ref?: string;
  text?: string;
  role?: string;
  name?: string;
  selector?: string;
}

/** A request the allowlist stopped. */
export interface BlockedRequest {
  url: string;
  host: string;
  navigation: boolean;
  reason: string;
}

/** A risky element on the current page, with a screenshot that marks it (for approvals). */
interface RiskyMark {
  screenshot: string;
}

const ACTION_TIMEOUT_MS = 15_000;

/** Every task context: downloads caught (and confined), no service workers, one viewport. */
export const CONTEXT_OPTIONS = { acceptDownloads: true, serviceWorkers: 'block', viewport: { width: 1280, height: 800 } } as const;

/**
 * One task's browser: its own context (no cookies or storage shared with other tasks), one page,
 * an allowlist enforced on every request, downloads saved into the task workspace, and the
 * latest page model so click targets can be classified before they are clicked.
 */
export class BrowserSession {
  private readonly allowedHosts = new Set<string>();
  private readonly blockedLog: BlockedRequest[] = [];
  private readonly downloadsLog: string[] = [];
  private model: PageModel = { url: 'about:blank', title: '', elements: [] };
  private marks = new Map<string, RiskyMark>();

  private constructor(
    readonly context: BrowserContext,
    readonly page: Page,
    readonly workspace: string,
    private readonly allow: readonly HostPattern[],
    /** False for a page in a shared persistent profile: closing the task closes only its page. */
    private readonly ownsContext: boolean,
  ) {}

  /** Opens an isolated context for a task workspace. */
  static async open(browser: Browser, workspace: string, allow: readonly HostPattern[]): Promise<BrowserSession> {
    return BrowserSession.attach(await browser.newContext(CONTEXT_OPTIONS), workspace, allow, true);
  }

  /**
   * Opens a task's page in the shared persistent context of a configured profile: cookies and
   * storage persist across tasks (the point of a profile), requests are still screened per page.
   */
  static openShared(context: BrowserContext, workspace: string, allow: readonly HostPattern[]): Promise<BrowserSession> {
    return BrowserSession.attach(context, workspace, allow, false);
  }

  private static async attach(context: BrowserContext, workspace: string, allow: readonly HostPattern[], ownsContext: boolean) {
    const page = await context.newPage();
    page.setDefaultTimeout(ACTION_TIMEOUT_MS);
    const session = new BrowserSession(context, page, workspace, allow, ownsContext);
    if (ownsContext) await context.route('**/*', (route) => session.screen(route));
    else {
      await page.route('**/*', (route) => session.screen(route));
      // A page it opened would escape page-level screening, so a shared profile gets no popups.
      page.on('popup', (popup) => void popup.close().catch(() => undefined));
    }
    page.on('download', (download) => void session.saveDownload(download));
    return session;
  }

  /** The page model from the last action (refs, roles, names). */
  get lastModel(): PageModel {
    return this.model;
  }

  /** Requests blocked so far (newest last). */
  get blocked(): readonly BlockedRequest[] {
    return this.blockedLog;
  }

  /** Workspace-relative paths of downloads saved so far. */
  get downloads(): readonly string[] {
    return this.downloadsLog;
  }

  /** Lets the page reach a host the gate allowed this task to navigate to. */
  allowHost(host: string): void {
    this.allowedHosts.add(host.toLowerCase());
  }

  /** The element a target names in the last page model (undefined for selectors or stale targets). */
  findInModel(target: ElementTarget): PageElement | undefined {
    const els = this.model.elements;
    if (target.ref !== undefined) return els.find((e) => e.ref === target.ref);
    if (target.role !== undefined) return els.find((e) => e.role === target.role && (target.name === undefined || e.name === target.name));
    const text = target.text?.trim();
    if (text !== undefined) return els.find((e) => e.name === text) ?? els.find((e) => e.role !== 'heading' && e.name.includes(text));
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
    const hit = this.blockedLog.slice(index).find((b) => b.navigation);
    return hit && new ToolError(`navigation to ${hit.url} blocked: ${hit.reason}`, false, 'browser_blocked');
  }

  /** Closes the context (cookies, storage and pages go with it), or only the page in a shared profile. */
  async close(): Promise<void> {
    await (this.ownsContext ? this.context.close() : this.page.close()).catch(() => undefined);
  }

  private async screen(route: Route): Promise<void> {
    const request = route.request();
    const url = safeUrl(request.url());
    if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:')) return route.continue();
    const host = url.port ? url.host : `${url.hostname}:${url.protocol === 'https:' ? 443 : 80}`;
    if (this.allowedHosts.has(host.toLowerCase()) || hostAllowed(this.allow, host)) return route.continue();
    this.blockedLog.push({
      url: url.href,
      host,
      navigation: request.isNavigationRequest() && request.frame() === this.page.mainFrame(),
      reason: `host ${host} is not in the browser allowlist (policy.networkAllow, or a URL this task navigated to with approval)`,
    });
    return route.abort('blockedbyclient');
  }

  private async saveDownload(download: Download): Promise<void> {
    const name = path.basename(download.suggestedFilename()).replace(/[^\w.\-() ]/g, '_') || 'download';
    const folder = path.join(this.workspace, 'downloads');
    mkdirSync(folder, { recursive: true });
    const target = path.join(folder, name);
    await download.saveAs(target).catch(() => undefined);
    this.downloadsLog.push(path.posix.join('downloads', name));
  }
}

function safeUrl(text: string): URL | undefined {
  try {
    return new URL(text);
  } catch {
    return undefined;
  }
}
