import type { CallClassification } from '../../runtime/tools/types.js';
import { classifyClick, type SubmittedForm } from '../../runtime/gui/riskyClick.js';
import { ToolError } from '../../runtime/tools/types.js';
import type { BrowserSession, ElementTarget } from './browserSession.js';
import { describeTarget, pageClassification } from './browserToolKit.js';
import { clickRisk, type PageElement, type PageModel } from './pageModel.js';

/** The control a key press would activate, and how it gets there. */
export interface Activation {
  ref?: string;
  role: string;
  name: string;
  href?: string;
  /** The visible text when it differs from the name. */
  text?: string;
  /** The form it submits. */
  form?: SubmittedForm;
  /** Where a submitted form posts. */
  action?: string;
  /** For previews: "submits the form with button …", "activates …". */
  how: string;
}

const ACTIVATES_ON_ENTER = new Set(['button', 'link', 'menuitem', 'tab']);
const ACTIVATES_ON_SPACE = new Set(['button', 'menuitem', 'tab']);

/** The key without modifiers, when it is one that activates controls (Enter or Space). */
export function activatingKey(key: string): 'enter' | 'space' | undefined {
  const base = key.split('+').pop() ?? key;
  if (base === 'Enter' || base === 'NumpadEnter') return 'enter';
  if (base === ' ' || base === 'Space') return 'space';
  return undefined;
}

/**
 * What pressing `key` on `element` clicks: Enter (or Space) on a button is a click of that
 * button, Enter on a link follows it, and Enter in a form's text field submits the form with its
 * default button (HTML implicit submission). Other keys activate nothing.
 */
export function activationOf(key: string, element: PageElement | undefined): Activation | undefined {
  const kind = activatingKey(key);
  if (!kind || !element) return undefined;
  const roles = kind === 'enter' ? ACTIVATES_ON_ENTER : ACTIVATES_ON_SPACE;
  if (roles.has(element.role)) {
    const { ref, role, name, href, text, form } = element;
    return {
      ref,
      role,
      name,
      ...(href !== undefined && { href }),
      ...(text !== undefined && { text }),
      ...(form && { form }),
      how: `activates ${role} "${name}"`,
    };
  }
  if (kind === 'enter' && element.submit) {
    const s = element.submit;
    return {
      ...(s.ref !== undefined && { ref: s.ref }),
      role: 'button',
      name: s.name,
      action: s.action,
      form: { action: s.action, method: s.method ?? 'get', fields: s.fields ?? [] },
      how: s.ref !== undefined ? `submits the form with button "${s.name}"` : `submits the form to ${s.action}`,
    };
  }
  return undefined;
}

/** The risk of an activation: its label and link like a click, else where the form posts. */
function activationRisk(a: Activation): ReturnType<typeof clickRisk> {
  const byLabel = clickRisk(a);
  if (byLabel.risk !== 'write' || a.action === undefined) return byLabel;
  return classifyClick({ text: '', role: 'link', url: a.action });
}

/** The element a press goes to: the named target, else the focused element of the page model. */
function pressedElement(model: PageModel, target: ElementTarget, session: BrowserSession): PageElement | undefined {
  if (Object.keys(target).length > 0) return session.findInModel(target);
  return model.focused === undefined ? undefined : model.elements.find((e) => e.ref === model.focused);
}

/** The gate's view of a key press: one that submits a form or activates a control is classified as clicking it. */
export function classifyPress(key: string, target: ElementTarget, session: BrowserSession | undefined): CallClassification {
  const on = Object.keys(target).length > 0 ? ` on ${describeTarget(target)}` : '';
  const element = session && pressedElement(session.lastModel, target, session);
  const activation = activationOf(key, element);
  if (!activation) return pageClassification('write', false, session, `press ${key}${on}`);
  const risk = activationRisk(activation);
  const screenshot = risk.risk === 'write' || activation.ref === undefined ? undefined : session?.markedScreenshot(activation.ref);
  const summary =
    `press ${key} in ${element!.role} "${element!.name}" ${activation.how} on ${session?.page.url() ?? ''}` +
    (risk.because ? ` — ${risk.risk}: ${risk.because}` : '');
  return pageClassification(risk.risk, false, session, summary, {
    preview: { summary, ...(screenshot && { screenshot }), body: JSON.stringify({ key, target, activation }, null, 2) },
  });
}

/**
 * Before an activating key is pressed: re-reads the page and refuses when the press would now
 * activate a risky control the gate did not see (the page changed, or a selector target).
 */
export async function assertPressClassified(key: string, target: ElementTarget, session: BrowserSession): Promise<void> {
  if (!activatingKey(key)) return;
  const seen = classifyPress(key, target, session).risks;
  const model = await session.refresh();
  const element = Object.keys(target).length > 0 ? await session.describe(session.locate(target)) : pressedElement(model, target, session);
  const activation = activationOf(key, element);
  if (!activation) return;
  const actual = activationRisk(activation);
  if (actual.risk === 'write' || seen.includes(actual.risk)) return;
  throw new ToolError(
    `refused to press ${key}: it ${activation.how}, a ${actual.risk} target (${actual.because}) the policy gate did not classify; ` +
      'take a snapshot and press it on a ref so it can be approved',
    false,
    'browser_unclassified_target',
  );
}
