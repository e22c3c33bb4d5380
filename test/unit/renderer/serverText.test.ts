import { describe, expect, it } from 'vitest';
import { translateServerText, translateServerTexts } from '../../../renderer/src/i18n/index.js';

describe('server text rendered from the catalogs', () => {
  it('a known code reads in the reader language with its parameters', () => {
    const text = {
      code: 'route.fallbackIf',
      params: { first: 'fs.write', tool: 'mcp__fs__write_file', capability: 'file.write', tier: 'mcp' },
    };
    expect(translateServerText('zh-CN', text, 'fallback if …')).toBe(
      'fs.write 失败时的后备：mcp__fs__write_file 提供 file.write（mcp 层）',
    );
    expect(translateServerText('en', text, 'x')).toBe('fallback if fs.write fails: mcp__fs__write_file provides file.write (mcp tier)');
  });

  it('an unknown code or none shows the English the server sent', () => {
    expect(translateServerText('zh-CN', { code: 'route.fromTheFuture', params: {} }, 'named in plan')).toBe('named in plan');
    expect(translateServerText('zh-CN', undefined, 'named in plan')).toBe('named in plan');
  });

  it('policy reasons join in the reader language, the risk class in its words; one unknown code keeps the English', () => {
    const texts = [
      { code: 'policy.riskAsks', params: { risk: 'delete' } },
      { code: 'policy.riskAsks', params: { risk: 'send' } },
    ];
    expect(translateServerTexts('zh-CN', texts, 'delete asks by default; send asks by default')).toBe(
      '“删除”类操作默认需要询问；“发送”类操作默认需要询问',
    );
    expect(translateServerTexts('en', texts, 'x')).toBe('delete asks by default; send asks by default');
    expect(translateServerTexts('zh-CN', [...texts, { code: 'policy.new', params: {} }], 'the English')).toBe('the English');
  });
});
