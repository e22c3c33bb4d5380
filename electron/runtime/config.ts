import { existsSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ConfigSchema, type Config } from '../contract/index.js';
import { parseJsonConfigFile } from './configFiles/configFileIssues.js';

/** Where Agent Desk keeps its data: `AGENT_DESK_HOME`, else `~/.agent-desk`. */
export function resolveHome(env: NodeJS.ProcessEnv = process.env): string {
  return path.resolve(env.AGENT_DESK_HOME ?? path.join(os.homedir(), '.agent-desk'));
}

/** `<home>/config.json`, whether or not it exists. */
export const configFilePath = (home: string): string => path.join(home, 'config.json');

/** Reads `<home>/config.json`; a missing file means defaults, a broken one a clear error (one line per problem). */
export function loadConfig(home: string): Config {
  const file = configFilePath(home);
  if (!existsSync(file)) return ConfigSchema.parse({});
  return parseJsonConfigFile(ConfigSchema, readFileSync(file, 'utf8'), file);
}
