import type { BrowserContext, Page } from 'playwright-core';

/** One hop of a redirect chain, before the browser sends it. */
export interface RedirectHop {
  url: string;
  method: string;
  /** The URL that redirected here. */
  from: string;
  mainFrameNavigation: boolean;
}

/** How many request ids to remember for spotting hops (old ones are long finished). */
const REMEMBERED = 2000;

interface PausedRequest {
  requestId: string;
  networkId?: string;
  redirectedRequestId?: string;
  resourceType: string;
  frameId: string;
  request: { url: string; method: string };
}

/**
 * Checks every redirect hop of the page's requests before it is sent. Playwright routes only the
 * first URL of a chain and lets Chromium follow redirects on its own, so a second DevTools
 * interception pauses every request: a first hop goes on at once (the route screened it), a later
 * hop of the same network request goes to `check`, which blocks it by returning a reason.
 */
export async function guardRedirects(context: BrowserContext, page: Page, check: (hop: RedirectHop) => string | undefined): Promise<void> {
  const cdp = await context.newCDPSession(page);
  const lastUrl = new Map<string, string>();
  const { frameTree } = (await cdp.send('Page.getFrameTree')) as { frameTree: { frame: { id: string } } };
  const mainFrameId = frameTree.frame.id;
  cdp.on('Fetch.requestPaused', (event: PausedRequest) => {
    // A hop keeps its network request's id; Chromium also names the request it came from.
    const from = (event.networkId === undefined ? undefined : lastUrl.get(event.networkId)) ?? (event.redirectedRequestId && '');
    if (event.networkId !== undefined) remember(lastUrl, event.networkId, event.request.url);
    const reason =
      from === undefined || from === null
        ? undefined
        : check({
            url: event.request.url,
            method: event.request.method,
            from,
            mainFrameNavigation: event.resourceType === 'Document' && event.frameId === mainFrameId,
          });
    const done = reason
      ? cdp.send('Fetch.failRequest', { requestId: event.requestId, errorReason: 'BlockedByClient' })
      : cdp.send('Fetch.continueRequest', { requestId: event.requestId });
    done.catch(() => undefined); // the page may be closing
  });
  await cdp.send('Fetch.enable', { patterns: [{ urlPattern: '*', requestStage: 'Request' }] });
}

function remember(map: Map<string, string>, key: string, value: string): void {
  map.delete(key);
  map.set(key, value);
  if (map.size > REMEMBERED) map.delete(map.keys().next().value!);
}
