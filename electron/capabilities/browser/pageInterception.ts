import type { BrowserContext, Page } from 'playwright-core';

/** A request of the task's page as DevTools pauses it: a chain's first hop, or a later one. */
export interface PausedHop {
  url: string;
  method: string;
  /** The URL that redirected here; absent for the first hop of a chain. */
  from?: string;
  mainFrameNavigation: boolean;
  body?: string;
  contentType?: string;
}

/** How many request ids to remember for spotting hops (old ones are long finished). */
const REMEMBERED = 2000;

interface PausedRequest {
  requestId: string;
  networkId?: string;
  redirectedRequestId?: string;
  resourceType: string;
  frameId: string;
  request: { url: string; method: string; postData?: string; headers: Record<string, string> };
}

/**
 * Pauses every request of the page before it is sent and hands it to `check`, which blocks it by
 * returning a reason. Playwright routes only the first URL of a chain and lets Chromium follow
 * redirects on its own, and it never sees requests a page sends while it unloads (keepalive
 * fetches, beacons from `pagehide`); this interception sees both, and it sees a request before
 * Playwright's route does.
 */
export async function interceptPageRequests(
  context: BrowserContext,
  page: Page,
  check: (hop: PausedHop) => string | undefined,
): Promise<void> {
  const cdp = await context.newCDPSession(page);
  const lastUrl = new Map<string, string>();
  const { frameTree } = (await cdp.send('Page.getFrameTree')) as { frameTree: { frame: { id: string } } };
  const mainFrameId = frameTree.frame.id;
  cdp.on('Fetch.requestPaused', (event: PausedRequest) => {
    // A hop keeps its network request's id; Chromium also names the request it came from.
    const from = (event.networkId === undefined ? undefined : lastUrl.get(event.networkId)) ?? (event.redirectedRequestId && '');
    if (event.networkId !== undefined) remember(lastUrl, event.networkId, event.request.url);
    const contentType = Object.entries(event.request.headers).find(([k]) => k.toLowerCase() === 'content-type')?.[1];
    const reason = check({
      url: event.request.url,
      method: event.request.method,
      ...(typeof from === 'string' && { from }),
      mainFrameNavigation: event.resourceType === 'Document' && event.frameId === mainFrameId,
      ...(event.request.postData !== undefined && { body: event.request.postData }),
      ...(contentType !== undefined && { contentType }),
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
