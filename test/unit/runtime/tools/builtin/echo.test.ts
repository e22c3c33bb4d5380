import { describe, expect, it } from 'vitest';
import { echoTool } from '../../../../../electron/runtime/tools/builtin/echo.js';
import { builtinTools } from '../../../../../electron/runtime/tools/builtin/index.js';
import { runTool, toolContext } from './workspaceFixture.js';

describe('echo', () => {
  it('returns the value it was given', async () => {
    expect(await runTool(echoTool, { value: { a: [1, 'two'] } }, toolContext('/unused'))).toEqual({ value: { a: [1, 'two'] } });
    expect(await runTool(echoTool, {}, toolContext('/unused'))).toEqual({ value: undefined });
  });

  it('rejects unknown arguments, as every built-in tool does', () => {
    for (const tool of builtinTools()) {
      expect(tool.input.safeParse({ path: 'a', url: 'http://h/', unexpected: 1 }).success, tool.name).toBe(false);
    }
  });
});
