import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  AcceptanceCheckSchema,
  CronRunOutcomeSchema,
  McpServerStateSchema,
  RiskClassSchema,
  SandboxModeSchema,
  TaskStateSchema,
  TierSchema,
} from '../../../electron/contract/index.js';
import { en } from '../../../renderer/src/i18n/en.js';
import { CATALOGS, LOCALES, toLocale, translate } from '../../../renderer/src/i18n/index.js';
import { REPO_ROOT } from '../../support/cliSandbox.js';

const placeholders = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();

/** Every `t('key')` / `t(\`prefix.${…}\`)` in the renderer's sources. */
function usedKeys(): { exact: Set<string>; prefixes: Set<string> } {
  const exact = new Set<string>();
  const prefixes = new Set<string>();
  const walk = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(path.join(dir, e.name)) : [path.join(dir, e.name)]));
  for (const file of walk(path.join(REPO_ROOT, 'renderer', 'src')).filter((f) => /\.tsx?$/.test(f))) {
    const text = readFileSync(file, 'utf8');
    for (const m of text.matchAll(/\bt\('([\w.]+)'/g)) exact.add(m[1] ?? '');
    for (const m of text.matchAll(/\bt\(`([\w.]+)\$\{/g)) prefixes.add(m[1] ?? '');
  }
  return { exact, prefixes };
}

describe('renderer i18n catalogs', () => {
  it('every locale has exactly the English keys, none empty, with the same placeholders', () => {
    for (const locale of LOCALES) {
      const catalog = CATALOGS[locale];
      expect(Object.keys(catalog).sort(), locale).toEqual(Object.keys(en).sort());
      for (const [key, text] of Object.entries(catalog)) {
        expect(text.trim(), `${locale} ${key}`).not.toBe('');
        expect(placeholders(text), `${locale} ${key}`).toEqual(placeholders(en[key as keyof typeof en]));
      }
    }
  });

  it('every key the sources use exists, and every dynamic prefix covers the task and step states', () => {
    const { exact, prefixes } = usedKeys();
    expect(exact.size).toBeGreaterThan(20);
    for (const key of exact) expect(en, key).toHaveProperty([key]);
    expect([...prefixes].sort()).toEqual([
      'checkField.',
      'checkType.',
      'cron.outcome.',
      'cron.state.',
      'cron.trigger.',
      'mcp.state.',
      'new.fieldError.',
      'new.mode.',
      'policy.',
      'risk.',
      'sandboxMode.',
      'stepStatus.',
      'taskState.',
      'tier.',
    ]);
    // Template keys are also checked by the compiler (t takes MessageKey); these pin the enums.
    for (const type of AcceptanceCheckSchema.options.map((o) => o.shape.type.value)) expect(en).toHaveProperty([`checkType.${type}`]);
    for (const tier of TierSchema.options) expect(en).toHaveProperty([`tier.${tier}`]);
    for (const risk of RiskClassSchema.options) expect(en).toHaveProperty([`risk.${risk}`]);
    for (const mode of SandboxModeSchema.options) expect(en).toHaveProperty([`sandboxMode.${mode}`]);
    for (const outcome of CronRunOutcomeSchema.options) expect(en).toHaveProperty([`cron.outcome.${outcome}`]);
    for (const state of McpServerStateSchema.options) expect(en).toHaveProperty([`mcp.state.${state}`]);
    for (const state of TaskStateSchema.options) expect(en).toHaveProperty([`taskState.${state}`]);
    for (const status of ['waiting_approval', 'started', 'completed', 'failed', 'denied', 'uncertain', 'skipped'])
      expect(en).toHaveProperty([`stepStatus.${status}`]);
  });

  it('fills placeholders and picks a locale from a browser language', () => {
    expect(translate('zh-CN', 'approval.title', { tool: 'fs.delete' })).toBe('需要审批：fs.delete');
    expect(translate('en', 'state.error', {})).toBe('Something went wrong: {message}');
    expect([toLocale('zh-TW'), toLocale('zh'), toLocale('en-GB'), toLocale(undefined), toLocale('fr')]).toEqual([
      'zh-CN',
      'zh-CN',
      'en',
      'en',
      'en',
    ]);
  });
});
