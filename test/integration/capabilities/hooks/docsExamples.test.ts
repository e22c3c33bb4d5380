import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigSchema } from '../../../../electron/contract/index.js';
import { ProcessHookRunner } from '../../../../electron/capabilities/hooks/processHookRunner.js';
import { readVerdict } from '../../../../electron/runtime/hooks/verdict.js';
import { tempDir } from '../../../support/runtime.js';

// docs/hooks.md's config and example scripts work as printed.

const DOC = readFileSync(new URL('../../../../docs/hooks.md', import.meta.url), 'utf8');
const blocks = (lang: string) => [...DOC.matchAll(new RegExp('```' + lang + '\\n([\\s\\S]*?)```', 'g'))].map((m) => m[1]!);
const examples = DOC.slice(DOC.indexOf('## Examples'));
const exampleBlocks = (lang: string) => [...examples.matchAll(new RegExp('```' + lang + '\\n([\\s\\S]*?)```', 'g'))].map((m) => m[1]!);

const dir = tempDir('hook-docs-');
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const runner = new ProcessHookRunner();

async function run(file: string, body: string, command: string, input: Record<string, unknown>) {
  writeFileSync(path.join(dir, file), body, { mode: 0o755 });
  const result = await runner.run({ command, stdin: JSON.stringify(input), cwd: dir, env: {}, timeoutMs: 20_000 });
  return readVerdict(input.hook_event_name as 'PreToolUse', result);
}

describe('docs/hooks.md', () => {
  it('its config example is a valid config', () => {
    const [config] = blocks('json');
    expect(ConfigSchema.safeParse(JSON.parse(config!)).success).toBe(true);
  });

  it('the release guard denies a delete under releases/ and lets others pass', async () => {
    const [guard] = exampleBlocks('sh');
    const call = (p: string) => ({
      hook_event_name: 'PreToolUse',
      session_id: 't',
      tool_name: 'fs.delete',
      tool_input: { path: p },
      step_index: 0,
    });
    expect(await run('guard.sh', guard!, path.join(dir, 'guard.sh'), call('releases/v1.tar'))).toEqual({
      outcome: 'ok',
      effect: 'deny',
      reason: 'releases/ is kept; ask a person',
    });
    expect(await run('guard.sh', guard!, path.join(dir, 'guard.sh'), call('tmp/x'))).toEqual({ outcome: 'ok' });
  });

  it('the Node prompt hook blocks rm -rf and otherwise adds context', async () => {
    const [script] = exampleBlocks('js');
    const prompt = (text: string) => ({ hook_event_name: 'UserPromptSubmit', prompt: text, prompt_source: 'message' });
    const command = `node ${path.join(dir, 'prompt.mjs')}`;
    expect(await run('prompt.mjs', script!, command, prompt('rm -rf /'))).toMatchObject({
      effect: 'deny',
      reason: 'destructive requests are not accepted',
    });
    expect(await run('prompt.mjs', script!, command, prompt('hello'))).toEqual({
      outcome: 'ok',
      context: 'Today is release day: no deploys.',
    });
  });

  it('the ask-for-every-request hook asks', async () => {
    const [, ask] = exampleBlocks('sh');
    expect(await run('ask.sh', ask!, path.join(dir, 'ask.sh'), { hook_event_name: 'PreToolUse', tool_name: 'http.request' })).toEqual({
      outcome: 'ok',
      effect: 'ask',
      reason: 'outbound calls are reviewed this week',
    });
  });
});
