import path from 'node:path';
import type { z } from 'zod';
import { ConfigSchema, McpConfigFileSchema, type Issue } from '../../contract/index.js';
import { AgentDeskError, describeIssues } from '../errors.js';
import { readableIssues } from '../planning/playbook/issues.js';
import { parsePlaybook } from '../planning/playbook/parse.js';
import type { ConfigFileKind } from './jsonSchemas.js';

/** What a file's name says it is: `mcp.json`, a YAML playbook, else a config.json. */
export function kindForFile(file: string): ConfigFileKind {
  const name = path.basename(file).toLowerCase();
  if (name === 'mcp.json') return 'mcp';
  if (name.endsWith('.yaml') || name.endsWith('.yml')) return 'playbook';
  return 'config';
}

/** Every problem in a config, mcp.json or playbook text, one located issue each; empty when valid. */
export function configFileIssues(kind: ConfigFileKind, text: string): Issue[] {
  if (kind === 'playbook') return playbookIssues(text);
  const parsed = parseJson(text);
  if ('issue' in parsed) return [parsed.issue];
  const result = (kind === 'config' ? ConfigSchema : McpConfigFileSchema).safeParse(parsed.value);
  return result.success ? [] : readableIssues(result.error.issues, parsed.value);
}

/**
 * Parses a JSON config file's text against its schema. A broken file is one
 * AgentDeskError('invalid_params'): a header naming the file, then one `path: problem` line each.
 */
export function parseJsonConfigFile<S extends z.ZodType>(schema: S, text: string, file: string): z.output<S> {
  const parsed = parseJson(text);
  if ('issue' in parsed) throw new AgentDeskError('invalid_params', `${file} is not valid JSON: ${parsed.issue.message}`);
  const result = schema.safeParse(parsed.value);
  if (result.success) return result.data;
  const issues = readableIssues(result.error.issues, parsed.value);
  throw new AgentDeskError('invalid_params', `${file} is invalid (${problemCount(issues)}):\n${describeIssues(issues)}`, { file, issues });
}

/** `1 problem`, `3 problems`. */
export const problemCount = (issues: readonly Issue[]): string => (issues.length === 1 ? '1 problem' : `${issues.length} problems`);

function parseJson(text: string): { value: unknown } | { issue: Issue } {
  try {
    return { value: JSON.parse(text) as unknown };
  } catch (error) {
    return { issue: { path: '(root)', message: `not valid JSON: ${(error as Error).message}` } };
  }
}

function playbookIssues(text: string): Issue[] {
  try {
    parsePlaybook(text);
    return [];
  } catch (error) {
    const issues = error instanceof AgentDeskError ? (error.details as { issues?: Issue[] } | undefined)?.issues : undefined;
    if (issues === undefined) throw error;
    return issues;
  }
}
