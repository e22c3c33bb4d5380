import { StringDecoder } from 'node:string_decoder';

/** A response body read up to a byte cap. */
export interface CappedBody {
  text: string;
  bytes: number;
  truncated: boolean;
}

/** Streams the body as utf8 text and stops (cancelling the download) after `maxBytes`. */
export async function readCappedBody(response: Response, maxBytes: number): Promise<CappedBody> {
  if (response.body === null) return { text: '', bytes: 0, truncated: false };
  const reader = response.body.getReader();
  const decoder = new StringDecoder('utf8');
  const parts: string[] = [];
  let bytes = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    const room = maxBytes - bytes;
    if (value.byteLength > room) {
      // The decoder keeps a character split by the cut to itself, so the text stays valid.
      parts.push(decoder.write(Buffer.from(value.buffer, value.byteOffset, room)));
      await reader.cancel().catch(() => undefined);
      return { text: parts.join(''), bytes: maxBytes, truncated: true };
    }
    parts.push(decoder.write(Buffer.from(value.buffer, value.byteOffset, value.byteLength)));
    bytes += value.byteLength;
  }
  parts.push(decoder.end());
  return { text: parts.join(''), bytes, truncated: false };
}

/** The body parsed as JSON when the content type says JSON and the body is whole, else undefined. */
export function parseJsonBody(contentType: string | null, body: CappedBody): unknown {
  if (body.truncated || body.text === '' || !/[/+]json\b/i.test(contentType ?? '')) return undefined;
  try {
    return JSON.parse(body.text) as unknown;
  } catch {
    return undefined;
  }
}
