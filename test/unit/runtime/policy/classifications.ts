import type { RiskClass } from '../../../../electron/contract/index.js';
import type { CallClassification } from '../../../../electron/runtime/tools/types.js';

/** A realistic classification: a workspace file write unless overridden. */
export function classification(risks: RiskClass[], overrides: Partial<CallClassification> = {}): CallClassification {
  return {
    risks,
    subject: 'notes/todo.md',
    readOnly: risks.every((r) => r === 'read'),
    idempotent: false,
    insideWorkspace: true,
    preview: { summary: `${risks.join(', ')} on ${overrides.subject ?? 'notes/todo.md'}` },
    ...overrides,
  };
}

/** An http call classification with its host derived the way the http tool reports it. */
export function httpCall(url: string, risks: RiskClass[] = ['external_http']): CallClassification {
  const parsed = new URL(url);
  const port = parsed.port || (parsed.protocol === 'https:' ? '443' : '80');
  return classification(risks, {
    subject: url,
    host: `${parsed.hostname}:${port}`,
    readOnly: false,
    insideWorkspace: true,
    preview: { summary: `GET ${url}` },
  });
}
