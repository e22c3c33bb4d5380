/** About the largest preview body an approval dialog shows comfortably. */
export const DIFF_PREVIEW_LIMIT = 8 * 1024;

/** Cuts `text` to `limit` characters, saying how much was left out. */
export function clipForPreview(text: string, limit: number): string {
  if (text.length <= limit) return text;
  return `${text.slice(0, limit)}\n… (${text.length - limit} more characters not shown)`;
}

/** True when the bytes look like binary data (a NUL byte in the first 8000, as git decides). */
export function looksBinary(bytes: Uint8Array): boolean {
  return bytes.subarray(0, 8000).includes(0);
}
