import type { BrowserContext, Page, Request, Route, WebSocketRoute } from 'playwright-core';
import { markedWorkerScript, WORKER_SCRIPT_PREFIX } from './workerGuard.js';
import type { HeldEffect } from '../../contract/index.js';
import { hostAllowed, type HostPattern } from '../../runtime/policy/hostPattern.js';
import { requestEffect, webSocketEffect } from '../../runtime/policy/effects/requestEffect.js';
import type { WriteOrigin } from '../../runtime/policy/effects/writeOrigins.js';
import { EffectGate } from '../../runtime/policy/effects/effectGate.js';
import { interceptPageRequests, type PausedHop } from './pageInterception.js';

const READS = new Set(['GET', 'HEAD', 'OPTIONS']);
/** How long a verdict of the page's interception waits for Playwright's route to see the same request. */
const DECIDED_TTL_MS = 5000;

/** What a task's browser may reach and write: the host allowlist and the origins whose writes pass. */
export interface BrowserPolicy {
  allow: readonly HostPattern[];
  allowWrites: readonly WriteOrigin[];
}

/** A request the allowlist or the effect gate stopped. */
export interface BlockedRequest {
  url: string;
  host: string;
  navigation: boolean;
  reason: string;
  /** Set when the effect gate stopped it (a state-changing request), not the allowlist. */
  effect?: HeldEffect;
}

/**
 * Everything a task's pages send, screened before it leaves: the host allowlist on every request,
 * every redirect hop and every WebSocket; the effect gate on every state-changing request and
 * every WebSocket message a page sends.
 */
export class NetworkScreen {
  readonly effects: EffectGate;
  private readonly allowedHosts = new Set<string>();
  private readonly blockedLog: BlockedRequest[] = [];
  /** When the last request or message was seen (an action settles once the page goes quiet). */
  lastActivityAt = 0;
  /** State-changing requests the page's interception let pass, so the route does not decide them twice. */
  private readonly decidedFirst = new Map<string, number[]>();

  constructor(
    private readonly page: Page,
    private readonly policy: BrowserPolicy,
  ) {
    this.effects = new EffectGate(policy.allowWrites);
  }

  /** Screens a context (or, in a shared profile, one page): requests, redirect hops, WebSockets. */
  async attach(target: BrowserContext | Page, context: BrowserContext): Promise<void> {
    await target.route('**/*', (route) => this.screen(route));
    await target.routeWebSocket(/.*/, (ws) => this.screenWebSocket(ws));
    const guard = (page: Page) =>
      interceptPageRequests(context, page, (hop) => (hop.from === undefined ? this.screenFirstHop(hop) : this.screenHop(hop)));
    await guard(this.page);
    // Popups of an isolated context are the task's pages too (a shared profile closes them).
    if (target === context) context.on('page', (page) => void guard(page).catch(() => undefined));
  }

  /** Requests blocked so far (newest last). */
  get blocked(): readonly BlockedRequest[] {
    return this.blockedLog;
  }

  /** Hosts the gate allowed this task to navigate to (beyond the allowlist). */
  get extraHosts(): string[] {
    return [...this.allowedHosts];
  }

  /** Lets the page reach a host the gate allowed this task to navigate to. */
  allowHost(host: string): void {
    this.allowedHosts.add(host.toLowerCase());
  }

  /** Why a URL's host may not be reached, or undefined when it may. */
  hostProblem(url: URL): { host: string; reason: string } | undefined {
    const host = hostWithPort(url);
    if (this.allowedHosts.has(host.toLowerCase()) || hostAllowed(this.policy.allow, host)) return undefined;
    return {
      host,
      reason: `host ${host} is not in the browser allowlist (policy.networkAllow, or a URL this task navigated to with approval)`,
    };
  }

  private async screen(route: Route): Promise<void> {
    const request = route.request();
    const url = safeUrl(request.url());
    if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:')) return route.continue();
    const navigation = this.isMainFrameNavigation(request);
    const problem = this.hostProblem(url);
    if (problem) {
      this.blockedLog.push({ url: url.href, ...problem, navigation });
      return route.abort('blockedbyclient');
    }
    this.lastActivityAt = Date.now();
    const worker = markedWorkerScript(url);
    if (worker) return this.serveGuardedWorker(route, worker);
    // The read path pays nothing more: a GET that is not a main-frame navigation is no effect.
    if (!navigation && READS.has(request.method())) return route.continue();
    if (this.takeDecided(`${request.method()} ${url.href}`)) return route.continue();
    const effect = requestEffect({
      method: request.method(),
      url: url.href,
      mainFrameNavigation: navigation,
      pageOrigin: frameOrigin(request),
      ...bodyOf(request),
    });
    const verdict = effect && this.effects.decide(effect);
    if (!verdict || verdict.pass) return route.continue();
    this.blockedLog.push({ url: url.href, host: hostWithPort(url), navigation, reason: verdict.reason, effect });
    return route.abort('blockedbyclient');
  }

  /** A worker script, fetched as it is and served with the guard in front (no WebSocket in workers). */
  private async serveGuardedWorker(route: Route, scriptUrl: string): Promise<void> {
    const response = await route.fetch({ url: scriptUrl }).catch(() => undefined);
    if (!response) return route.abort('failed');
    return route.fulfill({ response, body: WORKER_SCRIPT_PREFIX + (await response.text()) });
  }

  /**
   * A first hop, seen before Playwright's route (which may never see it: a keepalive fetch or a
   * beacon sent while the page unloads): the allowlist, and a state-changing request decided by
   * the effect gate here; one it lets pass is remembered so the route does not decide it again.
   */
  private screenFirstHop(hop: PausedHop): string | undefined {
    const url = safeUrl(hop.url);
    if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:')) return undefined;
    const problem = this.hostProblem(url);
    if (problem) {
      this.blockedLog.push({ url: url.href, ...problem, navigation: hop.mainFrameNavigation });
      return problem.reason;
    }
    if (!hop.mainFrameNavigation && READS.has(hop.method.toUpperCase())) return undefined;
    this.lastActivityAt = Date.now();
    const effect = requestEffect({
      method: hop.method,
      url: url.href,
      mainFrameNavigation: hop.mainFrameNavigation,
      pageOrigin: safeUrl(this.page.url())?.origin ?? 'null',
      ...(hop.body !== undefined && { body: hop.body }),
      ...(hop.contentType !== undefined && { contentType: hop.contentType }),
    });
    const verdict = effect && this.effects.decide(effect);
    if (!verdict || verdict.pass) {
      const key = `${hop.method} ${url.href}`;
      this.decidedFirst.set(key, [...this.fresh(key), Date.now()]);
      return undefined;
    }
    this.blockedLog.push({ url: url.href, host: hostWithPort(url), navigation: hop.mainFrameNavigation, reason: verdict.reason, effect });
    return verdict.reason;
  }

  /** True (and forgotten) when the page's interception already let this request pass. */
  private takeDecided(key: string): boolean {
    const times = this.fresh(key);
    const hit = times.shift() !== undefined;
    if (times.length > 0) this.decidedFirst.set(key, times);
    else this.decidedFirst.delete(key);
    return hit;
  }

  private fresh(key: string): number[] {
    const now = Date.now();
    return (this.decidedFirst.get(key) ?? []).filter((t) => now - t < DECIDED_TTL_MS);
  }

  /**
   * A redirect hop (Playwright routes only a chain's first URL): the allowlist again, and a
   * state-changing request (307/308 keep the method and body) may not move to another origin.
   */
  private screenHop(hop: PausedHop): string | undefined {
    const url = safeUrl(hop.url);
    if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:')) return undefined;
    const problem = this.hostProblem(url);
    const from = safeUrl(hop.from ?? '');
    const movedWrite = !READS.has(hop.method.toUpperCase()) && from?.origin !== url.origin;
    const reason = problem
      ? `redirect to ${url.href} blocked: ${problem.reason}`
      : movedWrite
        ? `redirect carried ${hop.method} from ${hop.from} to another origin (${url.origin}); blocked`
        : undefined;
    if (reason) this.blockedLog.push({ url: url.href, host: hostWithPort(url), navigation: hop.mainFrameNavigation, reason });
    return reason;
  }

  /** WebSockets: the allowlist on connect; every message the page sends is an effect the gate decides. */
  private screenWebSocket(ws: WebSocketRoute): void {
    const url = safeUrl(ws.url());
    const httpUrl = url && new URL(url.href.replace(/^ws/, 'http'));
    const problem = httpUrl ? this.hostProblem(httpUrl) : { host: '', reason: 'not a valid WebSocket URL' };
    if (problem) {
      this.blockedLog.push({ url: ws.url(), ...problem, navigation: false });
      void ws.close({ code: 1008, reason: 'blocked by the browser allowlist' }).catch(() => undefined);
      return;
    }
    const server = ws.connectToServer();
    ws.onMessage((message) => {
      this.lastActivityAt = Date.now();
      const effect = webSocketEffect(ws.url(), message);
      const verdict = this.effects.decide(effect);
      if (verdict.pass) return server.send(message);
      this.blockedLog.push({ url: ws.url(), host: hostWithPort(httpUrl!), navigation: false, reason: verdict.reason, effect });
    });
  }

  private isMainFrameNavigation(request: Request): boolean {
    try {
      return request.isNavigationRequest() && request.frame() === this.page.mainFrame();
    } catch {
      return false; // a service worker's request has no frame
    }
  }
}

/** `hostname:port` with the scheme's default port, as the allowlist compares hosts. */
export function hostWithPort(url: URL): string {
  return url.port ? url.host : `${url.hostname}:${url.protocol === 'https:' ? 443 : 80}`;
}

function frameOrigin(request: Request): string {
  try {
    return safeUrl(request.frame().url())?.origin ?? 'null';
  } catch {
    return 'null';
  }
}

function bodyOf(request: Request): { body?: string; contentType?: string } {
  const body = request.postData() ?? undefined;
  const contentType = request.headers()['content-type'];
  return { ...(body !== undefined && { body }), ...(contentType !== undefined && { contentType }) };
}

function safeUrl(text: string): URL | undefined {
  try {
    return new URL(text);
  } catch {
    return undefined;
  }
}
