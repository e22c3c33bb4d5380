import { describe, expect, it } from 'vitest';
import { toolDescription, TRANSLATED_TOOLS } from '../../../renderer/src/i18n/toolDescriptions.js';

describe('tool descriptions in 简体中文', () => {
  it('a shipped tool reads in Chinese in zh-CN and keeps the server text in English', () => {
    const tool = { name: 'fs.write', description: 'Writes a whole file in the task workspace atomically.' };
    expect(toolDescription('zh-CN', tool)).toMatch(/^以原子方式写入/);
    expect(toolDescription('en', tool)).toBe(tool.description);
  });

  it("a tool the catalog does not know (an MCP server's) keeps its own text", () => {
    expect(toolDescription('zh-CN', { name: 'mcp.fetch.fetch', description: 'Fetches a URL.' })).toBe('Fetches a URL.');
  });

  it('every entry is Chinese text, with no English sentence left in it', () => {
    for (const name of TRANSLATED_TOOLS) {
      const text = toolDescription('zh-CN', { name });
      expect(text, name).toMatch(/[\u4e00-\u9fff]/);
      expect(text.replace(/<[^>]+>|[A-Za-z][\w.:/()+-]*/g, ''), name).not.toMatch(/[A-Za-z]{4,}/);
    }
  });
});
