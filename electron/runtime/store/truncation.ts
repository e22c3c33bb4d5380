import { closeSync, fstatSync, openSync, readSync } from 'node:fs';

const HEADER_BYTES = 100;
const MAGIC = 'SQLite format 3\0';

/**
 * Throws a SQLITE_CORRUPT error when a database file is shorter than its own header says —
 * a truncated copy or a half-written restore — which SQLite itself notices only when a query
 * reaches a missing page, mid-run. Reads 100 bytes, so it costs nothing at start.
 */
export function assertNotTruncated(file: string): void {
  const fd = openSync(file, 'r');
  try {
    const size = fstatSync(fd).size;
    if (size === 0) return; // a new database, not yet written
    const header = Buffer.alloc(HEADER_BYTES);
    const read = readSync(fd, header, 0, HEADER_BYTES, 0);
    if (read < HEADER_BYTES || header.toString('latin1', 0, 16) !== MAGIC) return; // SQLite reports SQLITE_NOTADB
    const rawPageSize = header.readUInt16BE(16);
    const pageSize = rawPageSize === 1 ? 65_536 : rawPageSize;
    const pages = header.readUInt32BE(28);
    // The in-header size counts only when its change counter is current (offset 92 = offset 24).
    const sizeIsValid = pages > 0 && header.readUInt32BE(92) === header.readUInt32BE(24);
    if (sizeIsValid && size < pages * pageSize) {
      throw Object.assign(new Error(`database file is ${size} bytes but its header says ${pages * pageSize}`), {
        code: 'SQLITE_CORRUPT',
      });
    }
  } finally {
    closeSync(fd);
  }
}
