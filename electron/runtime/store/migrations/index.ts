import { init } from './001_init.js';

/** A numbered schema change. Never edit a released one: add the next number. */
export interface Migration {
  version: number;
  name: string;
  sql: string;
}

/** Every migration, in order. */
export const MIGRATIONS: readonly Migration[] = [{ version: 1, name: 'init', sql: init }];
