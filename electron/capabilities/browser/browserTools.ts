import type { AnyTool } from '../../runtime/tools/types.js';
import type { BrowserHost } from './browserHost.js';
import { inputTools } from './inputTools.js';
import { navigationTools } from './navigationTools.js';

/** Every browser-tier tool (`browser.*`), bound to one host backend. */
export function browserTools(host: BrowserHost): AnyTool[] {
  return [...navigationTools(host), ...inputTools(host)];
}
