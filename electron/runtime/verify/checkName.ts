import type { AcceptanceCheck, ServerText } from '../../contract/index.js';

/** Longest command line shown in a default name. */
const MAX_COMMAND = 80;

/** A check's name: the given one, else its type and target, e.g. `file_sha256 reports/inventory.csv`. */
export function defaultCheckName(check: AcceptanceCheck): string {
  if (check.name !== undefined && check.name !== '') return check.name;
  switch (check.type) {
    case 'file_exists':
      return `file_exists ${check.path}${check.exists ? '' : ' (absent)'}`;
    case 'file_sha256':
    case 'file_contains':
      return `${check.type} ${check.path}`;
    case 'http_status':
      return `http_status ${check.method === 'GET' ? '' : `${check.method} `}${check.url}`;
    case 'json_path':
      return `json_path ${check.path} in ${check.url ?? check.file ?? '?'}`;
    case 'command_exit': {
      const line = check.command.join(' ');
      return `command_exit ${line.length > MAX_COMMAND ? `${line.slice(0, MAX_COMMAND - 1)}…` : line}`;
    }
  }
}

/** The default names that hold words (not only a type and a target), as catalog codes. */
export function defaultCheckNameText(check: AcceptanceCheck): ServerText | undefined {
  if (check.name !== undefined && check.name !== '') return undefined;
  if (check.type === 'file_exists' && !check.exists) return { code: 'checkName.fileAbsent', params: { path: check.path } };
  if (check.type === 'json_path')
    return { code: 'checkName.jsonPath', params: { path: check.path, source: check.url ?? check.file ?? '?' } };
  return undefined;
}
