import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Command } from 'commander';
import { mcpConfigPath } from '../../capabilities/mcp/mcpConfigFile.js';
import { configFilePath, resolveHome } from '../../runtime/config.js';
import { configFileIssues, kindForFile, problemCount } from '../../runtime/configFiles/configFileIssues.js';
import { CONFIG_FILE_KINDS, isConfigFileKind, schemaFileText, type ConfigFileKind } from '../../runtime/configFiles/jsonSchemas.js';
import { AgentDeskError, describeIssues } from '../../runtime/errors.js';
import { printJson } from '../output.js';

const KINDS = CONFIG_FILE_KINDS.join(' | ');

/** `agent-desk config validate|schema|path`: check the files a person writes, and point editors at their schema. */
export function registerConfig(program: Command): void {
  const config = program
    .command('config')
    .description('config.json, mcp.json and playbooks: validate them, print their JSON Schema, find them');
  config
    .command('validate [file]')
    .description('check a file against its schema (default: config.json under AGENT_DESK_HOME); one line per problem, exit 2 when invalid')
    .option('--kind <kind>', `${KINDS} (default: from the file name: mcp.json, *.yaml|*.yml, else config)`)
    .option('--json', 'print {file, kind, valid, issues}')
    .action((file: string | undefined, opts: { kind?: string; json?: boolean }) => validateCommand(file, opts));
  config
    .command('schema [kind]')
    .description(`print the JSON Schema (draft-07) of ${KINDS} (default: config); the package ships them in schema/`)
    .action((kind: string | undefined) => void process.stdout.write(schemaFileText(parseKind(kind ?? 'config'))));
  config
    .command('path [kind]')
    .description('print where config.json (or mcp.json: `config path mcp`) lives under AGENT_DESK_HOME, whether or not it exists yet')
    .action((kind: string | undefined) => console.log(homeFilePath(parseKind(kind ?? 'config'))));
}

function validateCommand(given: string | undefined, opts: { kind?: string; json?: boolean }): void {
  const file = given === undefined ? configFilePath(resolveHome()) : path.resolve(given);
  const kind = opts.kind === undefined ? kindForFile(file) : parseKind(opts.kind);
  if (!existsSync(file)) {
    // No config.json at all is valid: every key has a default.
    if (given === undefined)
      return report({ file, kind, valid: true, issues: [] }, opts.json, `${file} does not exist: the defaults apply`);
    throw new AgentDeskError('not_found', `no such file: ${file}`, { file });
  }
  const issues = configFileIssues(kind, readFileSync(file, 'utf8'));
  if (issues.length === 0) return report({ file, kind, valid: true, issues }, opts.json, `${file}: a valid ${kindLabel(kind)}`);
  throw new AgentDeskError(
    'invalid_params',
    `${file} is not a valid ${kindLabel(kind)} (${problemCount(issues)}):\n${describeIssues(issues)}`,
    {
      file,
      kind,
      issues,
    },
  );
}

function report(
  result: { file: string; kind: ConfigFileKind; valid: boolean; issues: unknown[] },
  json: boolean | undefined,
  line: string,
): void {
  if (json) printJson(result);
  else console.log(line);
}

function parseKind(value: string): ConfigFileKind {
  if (isConfigFileKind(value)) return value;
  throw new AgentDeskError('invalid_params', `unknown kind "${value}": expected ${KINDS}`);
}

function homeFilePath(kind: ConfigFileKind): string {
  if (kind === 'playbook')
    throw new AgentDeskError('invalid_params', 'playbooks live wherever you keep them: `config path` knows config and mcp');
  const home = resolveHome();
  return kind === 'mcp' ? mcpConfigPath(home) : configFilePath(home);
}

const kindLabel = (kind: ConfigFileKind): string => (kind === 'playbook' ? 'playbook' : `${kind}.json`);
