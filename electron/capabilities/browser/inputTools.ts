import { z } from 'zod';
import type { CallClassification } from '../../runtime/tools/types.js';
import { ToolError, type AnyTool } from '../../runtime/tools/types.js';
import type { BrowserHost } from './browserHost.js';
import type { BrowserSession, ElementTarget } from './browserSession.js';
import { browserTool, describeTarget, oneTarget, pageClassification, targetFields, targetOf } from './browserToolKit.js';
import { assertPressClassified, classifyPress } from './keyPress.js';
import { clickRisk } from './pageModel.js';

const timeoutMs = z.number().int().min(100).max(120_000).default(15_000);

/** click, fill, type, press, select, scroll: acting on the page. */
export function inputTools(host: BrowserHost): AnyTool[] {
  return [
    browserTool(host, {
      name: 'click',
      title: 'Click an element',
      description: 'Click an element named by ref, text, role (+ name) or selector. Pay/buy/order clicks wait for approval.',
      input: oneTarget(z.object({ ...targetFields, timeoutMs }).strict()),
      risk: 'payment',
      readOnly: false,
      changesPage: true,
      gatesEffects: true,
      classify: (args, session) => classifyClick(targetOf(args), session),
      run: async (session, args) => {
        const target = targetOf(args);
        const locator = session.locate(target);
        const element = await session.describe(locator);
        assertClassified(target, session, element);
        session.actedOn = element.ref;
        const mark = session.blocked.length;
        await locator.click({ timeout: args.timeoutMs });
        await session.page.waitForLoadState('load').catch(() => undefined);
        const blocked = session.navigationBlockedSince(mark);
        if (blocked) throw blocked;
        return { clicked: { ref: element.ref, role: element.role, name: element.name } };
      },
    }),
    browserTool(host, {
      name: 'fill',
      title: 'Fill a field',
      description: 'Replace the value of a text field.',
      input: oneTarget(z.object({ ...targetFields, value: z.string().max(100_000), timeoutMs }).strict()),
      risk: 'write',
      readOnly: false,
      changesPage: true,
      gatesEffects: true,
      classify: (args, session) => pageClassification('write', false, session, `fill ${describeTarget(targetOf(args))}`),
      run: async (session, args) => {
        await session.locate(targetOf(args)).fill(args.value, { timeout: args.timeoutMs });
        return { filled: describeTarget(targetOf(args)) };
      },
    }),
    browserTool(host, {
      name: 'type',
      title: 'Type into a field',
      description: 'Type text key by key into an element (for fields that react to keystrokes).',
      input: oneTarget(
        z.object({ ...targetFields, value: z.string().max(10_000), delayMs: z.number().int().min(0).max(1000).default(0) }).strict(),
      ),
      risk: 'write',
      readOnly: false,
      changesPage: true,
      gatesEffects: true,
      classify: (args, session) => pageClassification('write', false, session, `type into ${describeTarget(targetOf(args))}`),
      run: async (session, args) => {
        await session.locate(targetOf(args)).pressSequentially(args.value, { delay: args.delayMs });
        return { typed: args.value.length };
      },
    }),
    browserTool(host, {
      name: 'press',
      title: 'Press a key',
      description:
        'Press a key (e.g. Enter, Tab, Control+A) on the focused element or a target. Enter that submits a pay/buy/order form waits for approval.',
      input: z.object({ ...targetFields, key: z.string().min(1).max(50) }).strict(),
      risk: 'payment',
      readOnly: false,
      changesPage: true,
      gatesEffects: true,
      classify: (args, session) => classifyPress(args.key, targetOf(args), session),
      run: async (session, args) => {
        const target = targetOf(args);
        await assertPressClassified(args.key, target, session);
        const mark = session.blocked.length;
        if (Object.keys(target).length > 0) await session.locate(target).press(args.key);
        else await session.page.keyboard.press(args.key);
        await session.page.waitForLoadState('load').catch(() => undefined);
        const blocked = session.navigationBlockedSince(mark);
        if (blocked) throw blocked;
        return { pressed: args.key };
      },
    }),
    browserTool(host, {
      name: 'select',
      title: 'Choose an option',
      description: 'Choose an option of a <select> by value or label.',
      input: oneTarget(z.object({ ...targetFields, option: z.string().max(500), timeoutMs }).strict()),
      risk: 'write',
      readOnly: false,
      changesPage: true,
      gatesEffects: true,
      classify: (args, session) =>
        pageClassification('write', false, session, `select "${args.option}" in ${describeTarget(targetOf(args))}`),
      run: async (session, args) => {
        const locator = session.locate(targetOf(args));
        const chosen = await locator
          .selectOption(args.option, { timeout: args.timeoutMs })
          .catch(() => locator.selectOption({ label: args.option }, { timeout: args.timeoutMs }));
        return { selected: chosen };
      },
    }),
    browserTool(host, {
      name: 'scroll',
      title: 'Scroll',
      description: 'Scroll the page (or bring a target into view).',
      input: z
        .object({
          ...targetFields,
          direction: z.enum(['down', 'up']).default('down'),
          pixels: z.number().int().min(1).max(100_000).default(600),
        })
        .strict(),
      risk: 'read',
      readOnly: true,
      changesPage: true,
      run: async (session, args) => {
        const target = targetOf(args);
        if (Object.keys(target).length > 0) await session.locate(target).scrollIntoViewIfNeeded();
        else await session.page.mouse.wheel(0, args.direction === 'down' ? args.pixels : -args.pixels);
        return { scrolled: Object.keys(target).length > 0 ? describeTarget(target) : `${args.direction} ${args.pixels}px` };
      },
    }),
  ];
}

/** The gate's view of a click: the target's words, role and link decide; risky targets carry a marked screenshot. */
export function classifyClick(target: ElementTarget, session: BrowserSession | undefined): CallClassification {
  const element = session?.findInModel(target);
  if (!element) return pageClassification('write', false, session, `click ${describeTarget(target)}`);
  const risk = clickRisk(element);
  const screenshot = risk.risk === 'write' ? undefined : session?.markedScreenshot(element.ref);
  const summary = `click ${element.role} "${element.name}" on ${session?.page.url() ?? ''}${risk.because ? ` — ${risk.risk}: ${risk.because}` : ''}`;
  return pageClassification(risk.risk, false, session, summary, {
    preview: { summary, ...(screenshot && { screenshot }), body: JSON.stringify({ target, element }, null, 2) },
  });
}

/** A click the gate did not see as risky must not land on a risky element (stale model, selector targets). */
function assertClassified(target: ElementTarget, session: BrowserSession, element: { role: string; name: string; href?: string }): void {
  const actual = clickRisk(element);
  if (actual.risk === 'write') return;
  const seen = classifyClick(target, session).risks;
  if (seen.includes(actual.risk)) return;
  throw new ToolError(
    `refused to click ${element.role} "${element.name}": it is a ${actual.risk} target (${actual.because}) the policy gate did not classify; ` +
      'take a snapshot and click it by ref or text so it can be approved',
    false,
    'browser_unclassified_target',
  );
}
