import { existsSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ConfigSchema, type Config } from '../contract/index.js';
import { AgentDeskError, describeIssues, issuesFromZod } from './errors.js';

/** Where Agent Desk keeps its data: `AGENT_DESK_HOME`, else `~/.agent-desk`. */
export function resolveHome(env: NodeJS.ProcessEnv = process.env): string {
  return path.resolve(env.AGENT_DESK_HOME ?? path.join(os.homedir(), '.agent-desk'));
}

/** Reads `<home>/config.json`; a missing file means defaults, a broken one a clear error. */
export function loadConfig(home: string): Config {
  const file = path.join(home, 'config.json');
  if (!existsSync(file)) return ConfigSchema.parse({});
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new AgentDeskError('invalid_params', `${file} is not valid JSON: ${(error as Error).message}`);
  }
  const parsed = ConfigSchema.safeParse(raw);
  if (!parsed.success) {
    const issues = issuesFromZod(parsed.error.issues);
    throw new AgentDeskError('invalid_params', `${file} is invalid:\n${describeIssues(issues)}`, { issues });
  }
  return parsed.data;
}
