import type { ApprovalPreview, RiskClass } from '../../../contract/index.js';
import type { CallClassification } from '../types.js';
import { checkWorkspacePath, type WorkspacePath } from './workspacePath.js';

/** The parts of a file call's classification that do not depend on the path. */
export interface PathCallTraits {
  risks: RiskClass[];
  readOnly: boolean;
  idempotent: boolean;
}

/**
 * Classifies a call on one workspace path. A path outside the workspace is reported (absolute
 * subject, insideWorkspace false) rather than thrown, so the gate can show it; execute refuses it.
 */
export function classifyPathCall(
  workspace: string,
  userPath: string,
  traits: PathCallTraits,
  preview: (target: WorkspacePath) => ApprovalPreview,
): CallClassification {
  const check = checkWorkspacePath(workspace, userPath);
  if (!check.ok) {
    return {
      ...traits,
      subject: check.absolute.split('\\').join('/'),
      insideWorkspace: false,
      preview: { summary: `Refused: ${check.reason}`, summaryText: { code: 'preview.refused', params: {}, detail: check.reason } },
    };
  }
  return { ...traits, subject: check.relative, insideWorkspace: true, preview: preview(check) };
}
