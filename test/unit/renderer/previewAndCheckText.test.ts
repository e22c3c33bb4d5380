import fs from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CheckResult } from '../../../electron/contract/index.js';
import { fsDeleteTool } from '../../../electron/runtime/tools/builtin/fsDelete.js';
import { fsReadTool } from '../../../electron/runtime/tools/builtin/fsRead.js';
import { fsWriteTool } from '../../../electron/runtime/tools/builtin/fsWrite.js';
import type { Tool } from '../../../electron/runtime/tools/types.js';
import { fileContainsVerifier } from '../../../electron/runtime/verify/fileContains.js';
import { fileExistsVerifier } from '../../../electron/runtime/verify/fileExists.js';
import { fileSha256Verifier } from '../../../electron/runtime/verify/fileSha256.js';
import { translateServerText } from '../../../renderer/src/i18n/index.js';
import { check, tempWorkspace } from '../runtime/verify/checkFixtures.js';

let ws: Awaited<ReturnType<typeof tempWorkspace>>;
beforeAll(async () => {
  ws = await tempWorkspace();
  await fs.writeFile(path.join(ws.dir, 'old.log'), 'stale');
  await fs.mkdir(path.join(ws.dir, 'logs'));
  await fs.writeFile(path.join(ws.dir, 'logs', 'a.log'), 'a');
  await fs.writeFile(path.join(ws.dir, 'big.bin'), Buffer.alloc(3000));
});
afterAll(() => ws.dispose());

function summaryOf<I>(tool: Tool<I>, args: unknown) {
  return tool.classify(tool.input.parse(args), { workspace: ws.dir }).preview;
}

describe('approval preview summaries as codes', () => {
  it.each([
    [fsDeleteTool, { path: 'old.log' }, '删除 old.log（5 字节）'],
    [fsDeleteTool, { path: 'logs', recursive: true }, '删除目录 logs 及其中的 1 个条目'],
    [fsDeleteTool, { path: 'gone.log' }, '删除 gone.log（不存在，无需操作）'],
    [fsDeleteTool, { path: 'big.bin' }, '删除 big.bin（2.9 KB）'],
    [fsWriteTool, { path: 'new.txt', content: 'x' }, '向 new.txt 写入 1 字节（新文件）'],
    [fsWriteTool, { path: 'old.log', content: 'stale' }, '向 old.log 写入 5 字节（无变化）'],
    [fsWriteTool, { path: 'old.log', content: 'fresh!' }, '向 old.log 写入 6 字节（替换 5 字节）'],
    [fsReadTool, { path: 'old.log' }, '读取 old.log'],
    [fsReadTool, { path: '../outside.txt' }, undefined],
  ] as [Tool<unknown>, unknown, string | undefined][])('%s %j', (tool, args, chinese) => {
    const preview = summaryOf(tool, args);
    // The English catalog reads as the tool's own English, which the CLI prints.
    expect(translateServerText('en', preview.summaryText, '(unknown code)')).toBe(preview.summary);
    if (chinese) expect(translateServerText('zh-CN', preview.summaryText, preview.summary)).toBe(chinese);
    // A refusal names the problem in the runtime's words: "已拒绝：" and the reason verbatim.
    else expect(translateServerText('zh-CN', preview.summaryText, preview.summary)).toMatch(/^已拒绝：/);
  });
});

describe('acceptance check results as codes', () => {
  const outcome = (r: CheckResult) => [
    translateServerText('en', r.outputText, '(unknown code)'),
    translateServerText('zh-CN', r.outputText, r.output),
  ];

  it('file_exists, found and not found', async () => {
    const found = await fileExistsVerifier.run(check({ type: 'file_exists', path: 'old.log' }), ws.ctx);
    const [en, zh] = outcome(found);
    expect(en).toBe(found.output);
    expect(zh).toBe(`存在（文件，5 字节）：${path.join(ws.dir, 'old.log')}`);
    const missing = await fileExistsVerifier.run(check({ type: 'file_exists', path: 'report.md' }), ws.ctx);
    expect(outcome(missing)).toEqual([missing.output, `未找到：${path.join(ws.dir, 'report.md')}`]);
  });

  it('file_contains lists each observation and the file head', async () => {
    const result = await fileContainsVerifier.run(check({ type: 'file_contains', path: 'old.log', text: 'fresh', pattern: '^st' }), ws.ctx);
    expect(result.passed).toBe(false);
    const [en, zh] = outcome(result);
    expect(en).toBe(result.output);
    expect(zh).toBe('未找到文本 "fresh"\n模式 /^st/ 在第 1 行匹配到 "st"\n文件（5 个字符）开头为："stale"');
  });

  it('file_sha256 mismatch', async () => {
    const result = await fileSha256Verifier.run(check({ type: 'file_sha256', path: 'old.log', sha256: 'ab'.repeat(32) }), ws.ctx);
    const [en, zh] = outcome(result);
    expect(en).toBe(result.output);
    expect(zh).toContain(`（应为 ${'ab'.repeat(32)}）`);
  });
});

describe('default check names with words in them as codes', () => {
  it('file_exists (absent) and json_path … in … read in the page language; names given by the user stay as written', async () => {
    const absent = await fileExistsVerifier.run(check({ type: 'file_exists', path: 'old.log', exists: false }), ws.ctx);
    expect(translateServerText('en', absent.nameText, '(unknown code)')).toBe(absent.name);
    expect(translateServerText('zh-CN', absent.nameText, absent.name)).toBe('file_exists old.log（不存在）');
    const named = await fileExistsVerifier.run(check({ type: 'file_exists', path: 'old.log', exists: false, name: 'log gone' }), ws.ctx);
    expect(named.nameText).toBeUndefined();
  });
});
