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
