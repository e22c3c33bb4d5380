import { accessSync, constants, existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { AgentDeskError } from '../errors.js';

/** What went wrong with the data folder or its database, in the words shown to the user. */
type BadState = { state: string; what: string; todo: string };

const CODE_BY_MESSAGE: readonly [RegExp, string][] = [
  [/file is not a database/i, 'SQLITE_NOTADB'],
  [/malformed|corrupt/i, 'SQLITE_CORRUPT'],
  [/readonly|read-only/i, 'SQLITE_READONLY'],
  [/disk is full|database or disk is full/i, 'SQLITE_FULL'],
  [/unable to open/i, 'SQLITE_CANTOPEN'],
];

function errorCode(error: unknown): string {
  const code = (error as { code?: unknown } | undefined)?.code;
  if (typeof code === 'string') return code;
  const message = error instanceof Error ? error.message : String(error);
  return CODE_BY_MESSAGE.find(([pattern]) => pattern.test(message))?.[1] ?? 'UNKNOWN';
}

/**
 * What the folder itself says, for errors SQLite and `mkdir` report vaguely (a read-only mount
 * shows up as SQLITE_CANTOPEN, or as ENOENT from a recursive mkdir): a file where the folder
 * should be, or a nearest existing folder that cannot be written.
 */
function probeFolder(home: string): string | undefined {
  let current = home;
  while (!existsSync(current) && path.dirname(current) !== current) current = path.dirname(current);
  try {
    if (!statSync(current).isDirectory()) return 'ENOTDIR';
    accessSync(current, constants.W_OK);
    return undefined;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return code === 'EROFS' || code === 'EACCES' || code === 'EPERM' ? code : undefined;
  }
}

function describe(code: string, file: string, home: string): BadState | undefined {
  const aside = `move it aside (mv ${file} ${file}.broken) to start with an empty one, or restore a backup`;
  if (code === 'SQLITE_NOTADB' || code.startsWith('SQLITE_CORRUPT'))
    return { state: 'corrupt', what: `the database ${file} is corrupt or truncated (${code})`, todo: aside };
  if (code.startsWith('SQLITE_READONLY') || code === 'EROFS')
    return {
      state: 'read_only',
      what: `the database ${file} is read-only (${code})`,
      todo: `make it and ${home} writable (chmod u+w), or point AGENT_DESK_HOME at a writable folder`,
    };
  if (code.startsWith('SQLITE_FULL') || code === 'ENOSPC')
    return { state: 'disk_full', what: `the disk holding ${home} is full (${code})`, todo: 'free some space, then start again' };
  if (code === 'ENOTDIR' || code === 'EEXIST')
    return {
      state: 'home_not_a_folder',
      what: `the data folder ${home} is not a folder: a file is in its place (${code})`,
      todo: 'move that file away or set AGENT_DESK_HOME to a folder',
    };
  if (code === 'EACCES' || code === 'EPERM' || code.startsWith('SQLITE_CANTOPEN') || code.startsWith('SQLITE_PERM'))
    return {
      state: 'no_access',
      what: `cannot open ${file} (${code})`,
      todo: `check that ${home} is a folder you may write to, or point AGENT_DESK_HOME elsewhere`,
    };
  return undefined;
}

/**
 * Turns a failure to open the data folder or its database into a `bad_state` error whose one
 * line says what happened and what to do; an error it cannot explain is passed through.
 */
export function badStateError(error: unknown, file: string, home: string): unknown {
  if (error instanceof AgentDeskError) return error;
  const code = probeFolder(home) ?? errorCode(error);
  const bad = describe(code, file, home);
  if (!bad) return error;
  return new AgentDeskError('bad_state', `${bad.what}: ${bad.todo}`, { state: bad.state, file, cause: code });
}

/** What a store failure met mid-run means for the user, by SQLite result code. */
const RUNNING_STORE_FAILURES: readonly [RegExp, string, string][] = [
  [
    /^SQLITE_(CORRUPT|NOTADB)/,
    'corrupt',
    'the database is corrupt: stop Agent Desk, move agent-desk.db aside (or restore a backup), then start again',
  ],
  [/^SQLITE_FULL/, 'disk_full', 'the disk holding the data folder is full: free some space, then retry'],
  [/^SQLITE_READONLY/, 'read_only', 'the database became read-only: make the data folder writable again, then retry'],
  [/^SQLITE_IOERR/, 'io_error', 'the disk failed to read or write the database: check the disk, then retry'],
];

/**
 * A SQLite failure met while serving a call (after a good start) as `bad_state`, or undefined for
 * any other error. Callers show its one line instead of a generic internal error and a stack.
 */
export function storeFailure(error: unknown): AgentDeskError | undefined {
  if (storeUnreachable(error)) {
    const detail = error instanceof Error ? error.message : String(error);
    return new AgentDeskError('unavailable', `the store cannot be reached (${detail}): retry once the database answers again`, {
      state: 'unreachable',
    });
  }
  const code = (error as { code?: unknown } | undefined)?.code;
  if (typeof code !== 'string') return undefined;
  const match = RUNNING_STORE_FAILURES.find(([pattern]) => pattern.test(code));
  if (!match) return undefined;
  const [, state, message] = match;
  return new AgentDeskError('bad_state', `${message} (${code})`, { state, cause: code });
}

/** Error codes of a PostgreSQL server that went away or refused: the connection, not the statement, failed. */
const UNREACHABLE_CODES = /^(ECONNREFUSED|ECONNRESET|ETIMEDOUT|EPIPE|ENOTFOUND|EAI_AGAIN|57P0[123]|08\d\d\d)$/;

/**
 * True when a store call failed because the database could not be reached (a lost connection, a
 * server restarting), not because of what was asked: nothing of the transaction landed, and the
 * same call may succeed later. A run met by it stops without recording a failure.
 */
export function storeUnreachable(error: unknown): boolean {
  const code = (error as { code?: unknown } | undefined)?.code;
  if (typeof code === 'string' && UNREACHABLE_CODES.test(code)) return true;
  const message = error instanceof Error ? error.message : '';
  return /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error/i.test(message);
}
