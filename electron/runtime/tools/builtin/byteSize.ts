import type { ServerText } from '../../../contract/index.js';

const UNITS = ['KB', 'MB', 'GB', 'TB'];

/** Human size for previews: `512 bytes`, `2.1 KB`, `3.4 MB`. */
export function formatByteSize(bytes: number): string {
  if (bytes < 1024) return bytes === 1 ? '1 byte' : `${bytes} bytes`;
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < UNITS.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${value.toFixed(1)} ${UNITS[unit]}`;
}

/** One mebibyte, the default read and download cap. */
export const MIB = 1024 * 1024;

/** `formatByteSize` as a catalog code, so "bytes" reads in the UI's language. */
export function byteSizeText(bytes: number): ServerText {
  if (bytes === 1) return { code: 'size.byte', params: {} };
  if (bytes < 1024) return { code: 'size.bytes', params: { n: bytes } };
  return { code: 'size.unit', params: { size: formatByteSize(bytes) } };
}
