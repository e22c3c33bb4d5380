import type { AnyTool } from '../types.js';
import { echoTool } from './echo.js';
import { fsDeleteTool } from './fsDelete.js';
import { fsListTool } from './fsList.js';
import { fsReadTool } from './fsRead.js';
import { fsWriteTool } from './fsWrite.js';
import { httpRequestTool } from './httpRequest.js';

export { echoTool } from './echo.js';
export { fsDeleteTool } from './fsDelete.js';
export { fsListTool } from './fsList.js';
export { fsReadTool } from './fsRead.js';
export { fsWriteTool } from './fsWrite.js';
export { httpRequestTool } from './httpRequest.js';
export { checkWorkspacePath, resolveWorkspacePath, type WorkspacePath } from './workspacePath.js';

/** The built-in API-tier tools: files in the task workspace, HTTP, and echo. */
export function builtinTools(): AnyTool[] {
  return [fsReadTool, fsListTool, fsWriteTool, fsDeleteTool, httpRequestTool, echoTool];
}
