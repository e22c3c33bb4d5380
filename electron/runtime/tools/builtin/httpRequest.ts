import { z } from 'zod';
import type { RiskClass } from '../../../contract/index.js';
import { ToolError, type CallClassification, type Tool, type ToolContext } from '../types.js';
import { MIB } from './byteSize.js';
import { toolErrorFromFetch } from './httpFailure.js';
import { fetchFollowingSameHost, HTTP_PROTOCOLS } from './httpRedirects.js';
import { parseJsonBody, readCappedBody } from './httpResponseBody.js';
import { clipForPreview } from './previewText.js';
import { CAPABILITIES } from '../capabilities.js';
import { previewSummary } from '../previewSummary.js';

const SAFE_METHODS: ReadonlySet<string> = new Set(['GET', 'HEAD', 'OPTIONS']);
const BODYLESS_METHODS: ReadonlySet<string> = new Set(['GET', 'HEAD']);
const BODY_PREVIEW_LIMIT = 4 * 1024;

/** Arguments of `http.request`. */
export const HttpRequestInputSchema = z
  .object({
    method: z.enum(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']).default('GET').describe('HTTP method.'),
    url: z.string().min(1).max(8192).describe('Absolute http:// or https:// URL.'),
    headers: z.record(z.string(), z.string()).optional().describe('Request headers.'),
    body: z
      .union([z.string(), z.number(), z.boolean(), z.null(), z.array(z.unknown()), z.record(z.string(), z.unknown())])
      .optional()
      .describe('Request body: a string is sent as is; any other JSON value is sent as application/json.'),
    timeoutMs: z.number().int().positive().max(120_000).default(30_000).describe('Give up after this many milliseconds.'),
    maxBytes: z
      .number()
      .int()
      .positive()
      .max(20 * MIB)
      .default(MIB)
      .describe('Read at most this many bytes of the response body; the result then says truncated.'),
    idempotencyKey: z
      .boolean()
      .default(false)
      .describe('Send an Idempotency-Key header (stable across retries) so the server applies a POST or PATCH once.'),
  })
  .strict()
  .superRefine((args, ctx) => {
    if (args.body !== undefined && BODYLESS_METHODS.has(args.method)) {
      ctx.addIssue({ code: 'custom', path: ['body'], message: `a ${args.method} request cannot have a body` });
    }
  });
/** Validated `http.request` arguments. */
export type HttpRequestArgs = z.infer<typeof HttpRequestInputSchema>;

/** What `http.request` returns; a non-2xx status is a result, not an error. */
export interface HttpRequestOutput {
  /** The URL the response came from (after same-origin redirects). */
  url: string;
  status: number;
  ok: boolean;
  /** Response headers, names lower-cased. */
  headers: Record<string, string>;
  body: string;
  /** The body parsed, when the content type is JSON and the body was read whole. */
  json?: unknown;
  bytes: number;
  truncated: boolean;
}

/** Sends one HTTP request with fetch. */
export const httpRequestTool: Tool<HttpRequestArgs> = {
  name: 'http.request',
  title: 'HTTP request',
  description:
    'Sends an HTTP(S) request and returns status, headers and body (JSON parsed when the response is JSON). Non-2xx statuses are returned, not raised.',
  tier: 'api',
  capabilities: ['http.request', CAPABILITIES.webRead],
  // Only a GET or HEAD reads the web; a POST and the like fall back nowhere.
  callCapabilities: (args) => (args.method === 'GET' || args.method === 'HEAD' ? ['http.request', CAPABILITIES.webRead] : ['http.request']),
  risk: 'send',
  readOnly: false,
  idempotent: false,
  input: HttpRequestInputSchema,
  classify: classifyHttpCall,
  availability: () => ({ available: true }),
  execute: sendHttpRequest,
};

/** Risks and idempotency of one call, decided by its method and idempotencyKey. */
export function httpCallTraits(args: Pick<HttpRequestArgs, 'method' | 'idempotencyKey'>): {
  risks: RiskClass[];
  readOnly: boolean;
  idempotent: boolean;
} {
  if (SAFE_METHODS.has(args.method)) return { risks: ['external_http'], readOnly: true, idempotent: true };
  const idempotent = args.method === 'PUT' || args.method === 'DELETE' || args.idempotencyKey;
  return { risks: ['external_http', 'send'], readOnly: false, idempotent };
}

function classifyHttpCall(args: HttpRequestArgs): CallClassification {
  const url = parseUrl(args.url);
  const body = serializeBody(args.body);
  return {
    ...httpCallTraits(args),
    subject: url?.href ?? args.url,
    insideWorkspace: false,
    ...(url === undefined ? {} : { host: hostWithPort(url) }),
    preview: {
      ...previewSummary(`${args.method} ${url?.href ?? args.url}`, 'preview.http', { method: args.method, url: url?.href ?? args.url }),
      ...(body.text === undefined ? {} : { body: clipForPreview(body.text, BODY_PREVIEW_LIMIT) }),
    },
  };
}

async function sendHttpRequest(args: HttpRequestArgs, ctx: ToolContext): Promise<HttpRequestOutput> {
  const url = parseUrl(args.url);
  if (url === undefined) {
    throw new ToolError(`"${args.url}" is not a valid http:// or https:// URL`, false, 'invalid_url');
  }
  const { idempotent } = httpCallTraits(args);
  const timeoutSignal = AbortSignal.timeout(args.timeoutMs);
  const signal = AbortSignal.any([ctx.signal, timeoutSignal]);
  const failure = { request: `${args.method} ${url.href}`, idempotent, callerSignal: ctx.signal, timeoutSignal, timeoutMs: args.timeoutMs };
  try {
    const body = serializeBody(args.body);
    const headers = requestHeaders(args, body.contentType, ctx.idempotencyKey);
    const init: RequestInit = { method: args.method, headers, signal, ...(body.text === undefined ? {} : { body: body.text }) };
    const fetched = await fetchFollowingSameHost(url, init, SAFE_METHODS.has(args.method));
    const read = await readCappedBody(fetched.response, args.maxBytes);
    const json = parseJsonBody(fetched.response.headers.get('content-type'), read);
    return {
      url: fetched.url.href,
      status: fetched.response.status,
      ok: fetched.response.ok,
      headers: Object.fromEntries(fetched.response.headers),
      body: read.text,
      ...(json === undefined ? {} : { json }),
      bytes: read.bytes,
      truncated: read.truncated,
    };
  } catch (error) {
    throw toolErrorFromFetch(error, failure);
  }
}

function requestHeaders(args: HttpRequestArgs, contentType: string | undefined, idempotencyKey: string): Headers {
  let headers: Headers;
  try {
    headers = new Headers(args.headers);
  } catch (error) {
    throw new ToolError(`invalid request header: ${(error as Error).message}`, false, 'invalid_header');
  }
  if (contentType !== undefined && !headers.has('content-type')) headers.set('content-type', contentType);
  if (args.idempotencyKey) headers.set('idempotency-key', idempotencyKey);
  return headers;
}

function serializeBody(body: HttpRequestArgs['body']): { text?: string; contentType?: string } {
  if (body === undefined) return {};
  if (typeof body === 'string') return { text: body };
  return { text: JSON.stringify(body), contentType: 'application/json' };
}

function parseUrl(text: string): URL | undefined {
  try {
    const url = new URL(text);
    return HTTP_PROTOCOLS.has(url.protocol) ? url : undefined;
  } catch {
    return undefined;
  }
}

/** `hostname:port` with the scheme's default port filled in, as policy host rules expect. */
function hostWithPort(url: URL): string {
  return `${url.hostname}:${url.port || (url.protocol === 'https:' ? '443' : '80')}`;
}
