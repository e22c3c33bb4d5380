import path from 'node:path';
import { POSTGRES_URL_PATTERN, type StoreConfig } from '../../../contract/index.js';
import { AgentDeskError } from '../../errors.js';
import type { SecretStore } from '../../secrets/secretStore.js';
import type { Redactor } from '../../trace/redactor.js';
import { openDatabase, type Durability } from '../database.js';
import { migrateDatabase, type MigrationReport } from '../migrate.js';
import { PostgresDatabase } from './postgresAdapter.js';
import { redactingSql } from './redactingSql.js';
import { SqliteDatabase } from './sqliteAdapter.js';
import type { SqlDatabase } from './sqlPort.js';

/** The database the store uses, resolved: the home's SQLite file, or a PostgreSQL URL (with its password). */
export type StoreTarget = { kind: 'sqlite'; file: string } | { kind: 'postgres'; url: string; password?: string };

/** The file name of the embedded database inside the data folder. */
export const SQLITE_FILE = 'agent-desk.db';

/** The PostgreSQL URL the store is to use (AGENT_DESK_DATABASE_URL over config.json's `store`), if any. */
export function postgresUrl(config: StoreConfig, env: NodeJS.ProcessEnv = process.env): string | undefined {
  const url = env.AGENT_DESK_DATABASE_URL?.trim() || (config.kind === 'postgres' ? config.url : undefined);
  if (url !== undefined && !POSTGRES_URL_PATTERN.test(url)) {
    throw new AgentDeskError('invalid_params', `AGENT_DESK_DATABASE_URL must be a postgres:// URL, not "${redactedUrl(url)}"`);
  }
  return url;
}

/**
 * Where the store lives: a PostgreSQL URL (`postgresUrl`), else the home's SQLite file. A
 * `passwordSecret` names a stored secret, so the password is written in neither.
 */
export function storeTarget(
  home: string,
  config: StoreConfig,
  secrets: Pick<SecretStore, 'get'>,
  env: NodeJS.ProcessEnv = process.env,
): StoreTarget {
  const url = postgresUrl(config, env);
  if (url === undefined) return { kind: 'sqlite', file: path.join(home, SQLITE_FILE) };
  const secretName = config.kind === 'postgres' ? config.passwordSecret : undefined;
  if (secretName === undefined) return { kind: 'postgres', url };
  const password = secrets.get(secretName);
  if (password === undefined) {
    throw new AgentDeskError(
      'bad_state',
      `store.passwordSecret names "${secretName}", which is not stored: agent-desk secrets set ${secretName}`,
    );
  }
  return { kind: 'postgres', url, password };
}

/** A database behind the store port, migrated to this build's schema, and what migrating did. */
export interface OpenedSqlDatabase {
  db: SqlDatabase;
  migration: MigrationReport;
}

/**
 * Opens the store's database behind the port and brings its schema up to date. An unreachable or
 * refusing PostgreSQL is `bad_state` with one line naming what to fix; a schema written by a newer
 * version is refused.
 */
export async function openSqlDatabase(target: StoreTarget, redactor: Redactor, durability?: Durability): Promise<OpenedSqlDatabase> {
  const raw = target.kind === 'sqlite' ? new SqliteDatabase(openDatabase(target.file, durability)) : new PostgresDatabase(target);
  try {
    const migration = await migrateDatabase(raw).catch((error: unknown) => {
      throw target.kind === 'postgres' ? postgresFailure(error, target.url) : error;
    });
    return { db: redactingSql(raw, redactor), migration };
  } catch (error) {
    await raw.close().catch(() => undefined);
    throw error;
  }
}

/** What a failed connection or statement means for the person starting Agent Desk. */
function postgresFailure(error: unknown, url: string): unknown {
  if (error instanceof AgentDeskError) return error;
  const { code, message } = error as { code?: string; message?: string };
  const where = redactedUrl(url);
  const todo: Record<string, string> = {
    ECONNREFUSED: 'is the server running and listening there?',
    ENOTFOUND: 'the host name does not resolve',
    ETIMEDOUT: 'the server did not answer in time',
    '28P01': 'the password was refused (store.passwordSecret, or the URL)',
    '28000': 'the server refused this user (pg_hba.conf)',
    '3D000': 'the database does not exist: create it first (createdb)',
  };
  const hint = (code && todo[code]) ?? 'check store.url in config.json or AGENT_DESK_DATABASE_URL';
  return new AgentDeskError('bad_state', `cannot open the PostgreSQL store at ${where}: ${firstLine(message)} — ${hint}`);
}

/** The URL without its password, for messages. */
export function redactedUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.href;
  } catch {
    return url.replace(/:[^:@/]*@/, ':***@');
  }
}

const firstLine = (text: string | undefined) => (text ?? 'unknown error').split('\n')[0];
