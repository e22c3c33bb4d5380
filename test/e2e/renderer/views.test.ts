import path from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { pollUntil } from '../../support/poll.js';
import { missing } from '../../support/requirements.js';
import { startServe, type ServeProcess } from '../../support/serveProcess.js';
import { referenceServer } from '../../integration/capabilities/mcp/referenceServers.js';
import { writeSkill } from '../../support/skillFolders.js';
import { openUi, requireBuiltUi, shot, useUiSession, WAIT } from './uiSession.js';

const skip = missing('chromium');
const ui = useUiSession(skip);

/** A playbook with no gated step, so a schedule's run never pops an approval over the page. */
const KEY = 'sk-ui-settings-7c1e9a3b5d';
/** A task that puts the user's `reader` skill in use. */
const READS_SKILL = 'name: use-reader\nsteps:\n  - id: skill\n    tool: skills.read\n    args: { name: reader }\n';
const WRITE_ONLY = 'name: nightly-note\nsteps:\n  - id: note\n    tool: fs.write\n    args: { path: note.txt, content: hi }\n';

/** The texts each locale must show (a sample per view, enough to prove the catalog is used). */
interface Texts {
  tasks: string;
  goalMode: string;
  fileExists: string;
  toolsHeading: string;
  available: string;
  skillsHeading: string;
  anyTool: string;
  skillsInUse: string;
  cronEmpty: string;
  manual: string;
  mcpConnected: string;
  writeOnly: string;
  noSecrets: string;
}

async function startUi(
  locale: 'en' | 'zh-CN',
  theme: 'light' | 'dark',
  text: Texts,
): Promise<{ page: Page; problems: string[]; serve: ServeProcess }> {
  requireBuiltUi();
  const cli = ui.home();
  // The user's own skills: one that narrows calls to fs.read, one that narrows nothing.
  const skills = path.join(cli.home, 'skills');
  writeSkill(skills, 'reader', { name: 'reader', description: 'Reads files.', 'allowed-tools': 'fs.read' }, 'Read.');
  writeSkill(skills, 'open-ended', { name: 'open-ended', description: 'Anything.' }, 'Go.');
  const serve = await startServe(cli);
  const { page, problems } = await openUi(ui.browser, serve);
  await page.waitForSelector('[data-testid="state-empty"]', WAIT);
  await page.getByTestId('locale-switch').selectOption(locale);
  await page.getByRole('link', { name: text.tasks, exact: true }).waitFor(WAIT);
  if (theme === 'dark') await page.getByTestId('theme-switch').click();
  return { page, problems, serve };
}

/** New task from a goal: model, sandbox mode and acceptance checks edited, then shown on the task. */
async function goalTask(page: Page, locale: string, text: Texts): Promise<void> {
  await page.click('a[href="#/new"]');
  await page.getByTestId('mode-goal').check();
  expect(await page.getByText(text.goalMode, { exact: true }).count()).toBeGreaterThan(0);
  await page.getByTestId('goal').fill('Write hello.txt saying hello');
  await page.getByTestId('model').fill('openai:gpt-4.1-mini');
  await page.getByTestId('sandbox').selectOption('none');
  // Three checks added, one removed: the two left are what the task carries.
  await page.getByTestId('add-check').click();
  await page.getByTestId('check-type').selectOption('command_exit');
  await page.getByTestId('add-check').click();
  await page.getByTestId('check-type').selectOption('file_contains');
  await page.getByTestId('add-check').click();
  const drafts = page.getByTestId('check-draft');
  expect(await drafts.count()).toBe(3);
  expect(await drafts.nth(0).textContent()).toContain(text.fileExists);
  await drafts.nth(0).locator('[data-field="path"]').fill('hello.txt');
  await drafts.nth(1).locator('[data-field="command"]').fill('test\n-s\nhello.txt');
  await drafts.nth(2).getByTestId('remove-check').click();
  expect(await drafts.count()).toBe(2);
  await shot(page, `${locale}-7-new-goal-task`);

  await page.getByTestId('create-task').click();
  const plan = page.getByTestId('task-plan');
  await plan.waitFor(WAIT);
  expect(await plan.getAttribute('data-plan-kind')).toBe('goal');
  expect(await plan.textContent()).toContain('Write hello.txt saying hello');
  expect(await plan.textContent()).toContain('openai:gpt-4.1-mini');
  expect(await page.getByTestId('planned-checks').locator('li').count()).toBe(2);
  // sandbox none: no live screen panel for this task.
  expect(await page.getByTestId('live-screen').count()).toBe(0);
  await shot(page, `${locale}-8-goal-task-detail`);
}

/** Tools by tier: the api tier lists fs.write as available. */
async function toolsCatalog(page: Page, locale: string, text: Texts): Promise<void> {
  await page.click('a[href="#/tools"]');
  const row = page.locator('[data-tier="api"] tr[data-tool="fs.write"]');
  await row.waitFor(WAIT);
  expect(await row.getAttribute('data-available')).toBe('true');
  expect(await row.textContent()).toContain(text.available);
  expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe(text.toolsHeading);
  expect(await page.locator('[data-tier]').count()).toBe(4);
  // The user's skills, each with what it narrows a task's calls to while in use.
  const skills = page.getByTestId('skills');
  await skills.locator('tr[data-skill="reader"]').waitFor(WAIT);
  expect(await skills.getByRole('heading', { level: 2 }).textContent()).toBe(text.skillsHeading);
  expect(await skills.locator('tr[data-skill="reader"]').textContent()).toContain('fs.read');
  expect(await skills.locator('tr[data-skill="open-ended"]').textContent()).toContain(text.anyTool);
  await shot(page, `${locale}-9-tools`);
}

/** A task that read a skill shows it in use on its page: what narrows its calls from then on. */
async function skillInUse(page: Page, serve: ServeProcess, locale: string, text: Texts): Promise<void> {
  const client = await serve.connect();
  let taskId: string;
  try {
    taskId = (await client.call('tasks.create', { playbook: { source: READS_SKILL } })).id;
    await pollUntil('the skill task to succeed', async () => {
      const { task } = await client.call('tasks.get', { taskId });
      return task.state === 'succeeded' || undefined;
    });
  } finally {
    await client.close();
  }
  await page.evaluate(`window.location.hash = ${JSON.stringify(`#/task/${taskId}`)}`);
  const line = page.getByTestId('skills-in-use');
  await line.waitFor(WAIT);
  expect(await line.textContent()).toBe(`${text.skillsInUse} reader`);
  expect(await line.locator('code[data-skill="reader"]').getAttribute('title')).toBe('fs.read');
  await shot(page, `${locale}-9b-skills-in-use`);
}

/** Schedules: empty, add a job, run it now (a run with its task appears), remove it. */
async function schedules(page: Page, locale: string, text: Texts): Promise<void> {
  await page.click('a[href="#/schedules"]');
  await page.getByTestId('cron-jobs').getByText(text.cronEmpty).waitFor(WAIT);
  await page.getByTestId('cron-name').fill('nightly note');
  await page.getByTestId('cron-text').fill(WRITE_ONLY);
  await page.getByTestId('cron-submit').click();
  const job = page.locator('tr[data-job="nightly note"]');
  await job.waitFor(WAIT);
  await job.getByTestId('cron-run').click();
  const run = page.locator('[data-testid="cron-runs"] tr[data-outcome="queued"]');
  await run.waitFor(WAIT);
  expect(await run.textContent()).toContain(text.manual);
  expect(await run.locator('a[href^="#/task/"]').count()).toBe(1);
  await shot(page, `${locale}-10-schedules`);
  await job.getByTestId('cron-remove').click();
  await page.getByTestId('cron-jobs').getByText(text.cronEmpty).waitFor(WAIT);
}

/** Settings: add a stdio MCP server (a real reference server), test it, remove it. */
async function mcpSettings(page: Page, serve: ServeProcess, locale: string, text: Texts): Promise<void> {
  await page.click('a[href="#/settings"]');
  await configSettings(page, serve, text);
  await page.getByTestId('settings-mcp').getByTestId('state-empty').waitFor(WAIT);
  await page.getByTestId('mcp-name').fill('memory');
  await page.getByTestId('mcp-command').fill(process.execPath);
  await page.getByTestId('mcp-args').fill(referenceServer('memory'));
  await page.getByTestId('mcp-submit').click();
  const server = page.locator('tr[data-server="memory"]');
  await server.waitFor(WAIT);
  expect(await server.getAttribute('data-state')).toBe('connected');
  expect(await server.textContent()).toContain(text.mcpConnected);
  await server.getByTestId('mcp-test').click();
  await page.getByTestId('mcp-probe').getByText('mcp__memory__create_entities').waitFor(WAIT);
  await shot(page, `${locale}-11-settings`);
  await server.getByTestId('mcp-remove').click();
  await page.getByTestId('settings-mcp').getByTestId('state-empty').waitFor(WAIT);
}

/** Settings: a provider and its key (write-only: stored as a secret, only its name shown), policy rules persisted. */
async function configSettings(page: Page, serve: ServeProcess, text: Texts): Promise<void> {
  const providers = page.getByTestId('settings-providers');
  await providers.getByText(text.noSecrets).waitFor(WAIT);
  expect(await providers.textContent()).toContain(text.writeOnly);
  await page.getByTestId('provider-name').fill('local');
  await providers.locator('input[placeholder="https://…/v1"]').fill('http://127.0.0.1:9/v1');
  await page.getByTestId('provider-key').fill(KEY);
  await page.getByTestId('provider-submit').click();
  await page.locator('[data-testid="providers"] tr[data-provider="local"]').waitFor(WAIT);
  await page.locator('[data-testid="secrets"] li[data-secret="local-api-key"]').waitFor(WAIT);
  expect(await page.locator('[data-testid="providers"] tr[data-provider="local"]').textContent()).toContain('local-api-key');
  expect(await page.getByTestId('provider-key').inputValue()).toBe('');
  expect(await page.content()).not.toContain(KEY);
  await page.getByTestId('policy-deny').fill('fs.delete(keep/**)');
  await page.getByTestId('policy-save').click();
  const client = await serve.connect();
  try {
    await pollUntil('the deny rule to be saved', async () => {
      const { config } = await client.call('settings.get', {});
      return config.policy.rules.deny.includes('fs.delete(keep/**)') || undefined;
    });
    expect((await client.call('secrets.list', {})).names).toEqual(['local-api-key']);
    expect(JSON.stringify((await client.call('settings.get', {})).config)).not.toContain(KEY);
  } finally {
    await client.close();
  }
  // Saved in config.json: a fresh page load reads it back.
  await page.reload();
  await page.locator('[data-testid="providers"] tr[data-provider="local"]').waitFor(WAIT);
  expect(await page.getByTestId('policy-deny').inputValue()).toBe('fs.delete(keep/**)');
}

async function viewsFlow(locale: 'en' | 'zh-CN', theme: 'light' | 'dark', text: Texts): Promise<void> {
  const { page, problems, serve } = await startUi(locale, theme, text);
  await goalTask(page, locale, text);
  await toolsCatalog(page, locale, text);
  await skillInUse(page, serve, locale, text);
  await schedules(page, locale, text);
  await mcpSettings(page, serve, locale, text);
  expect(problems).toEqual([]);
  await page.context().close();
}

const EN: Texts = {
  tasks: 'Tasks',
  goalMode: 'Goal',
  fileExists: 'File exists',
  toolsHeading: 'Tools',
  available: 'Available',
  skillsHeading: 'Skills',
  anyTool: 'any tool (no narrowing)',
  skillsInUse: 'Skills in use:',
  cronEmpty: 'No schedules yet. Add one below.',
  manual: 'Manual',
  mcpConnected: 'Connected',
  writeOnly: 'Values are write-only',
  noSecrets: 'No secrets stored.',
};
const ZH: Texts = {
  tasks: '任务',
  goalMode: '目标',
  fileExists: '文件存在',
  toolsHeading: '工具',
  available: '可用',
  skillsHeading: '技能',
  anyTool: '任意工具（不限制）',
  skillsInUse: '使用中的技能：',
  cronEmpty: '还没有定时任务。请在下方添加。',
  manual: '手动',
  mcpConnected: '已连接',
  writeOnly: '密钥值只写',
  noSecrets: '没有保存的密钥。',
};

describe.skipIf(skip)(`web UI views against agent-desk serve${skip ? ` (skipped: ${skip})` : ''}`, () => {
  it('new goal task with checks, tools by tier, schedules and MCP settings (English)', async () => {
    await viewsFlow('en', 'light', EN);
  });

  it('the same views in 简体中文 with the dark theme', async () => {
    await viewsFlow('zh-CN', 'dark', ZH);
  });
});
