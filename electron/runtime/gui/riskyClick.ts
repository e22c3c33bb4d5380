import type { RiskClass } from '../../contract/index.js';
import { labelsDisagree, normalizeLabel } from '../policy/effects/labelText.js';
import { PAYMENT_FIELD, riskOfPath, riskOfWords } from '../policy/effects/riskWords.js';

/** The form a click submits: where it posts and the names of its fields. */
export interface SubmittedForm {
  action: string;
  method: string;
  /** Field names, ids and autocomplete tokens of its controls. */
  fields: readonly string[];
}

/** What a click would hit, as far as the page tells (accessible name, visible text, role, URL, form). */
export interface ClickTarget {
  /** The accessible name (what assistive technology announces). */
  text: string;
  /** The text the element shows, when the page tells it apart from the name. */
  visibleText?: string;
  /** ARIA role or tag (`link`, `a`, `button`…); the URL only counts for links. */
  role?: string;
  /** Where a link leads. */
  url?: string;
  /** The form the click submits (a submit button or image input inside a form). */
  form?: SubmittedForm;
}

/** The risk class of a click, the words (or URL) that decided it, and a sentence for previews. */
export interface ClickRisk {
  risk: RiskClass;
  /** The word that made it risky, e.g. "Place order" or "支付", or the URL. */
  matched?: string;
  because?: string;
}

/** A click that commits money or an order: it waits for a human approval, never remembered. */
export interface RiskyClick {
  risk: 'payment';
  matched: string;
  because?: string;
}

const LINK_ROLES = new Set(['a', 'link']);

/**
 * Classifies a click by every signal the target offers, any of which suffices: the words of its
 * accessible name and of its visible text (normalized against invisible characters, confusable
 * letters and full-width forms; English and Chinese, one word list), where a link leads, and
 * what the form it submits posts (payment path or card/amount fields). A name that differs from
 * the visible text is itself a risk (`send`: it asks). Any other click is an ordinary `write`.
 * The one classifier for browser and desktop clicks.
 */
export function classifyClick(target: ClickTarget): ClickRisk {
  const who = target.role || 'element';
  const name = normalizeLabel(target.text);
  const shown = target.visibleText === undefined ? name : normalizeLabel(target.visibleText);
  for (const label of name === shown ? [name] : [name, shown]) {
    const word = riskOfWords(label);
    if (word) return { risk: word.risk, matched: word.matched, because: `${who} "${label.slice(0, 80)}" says "${word.matched}"` };
  }
  const byForm = target.form && formRisk(target.form);
  if (byForm) return { ...byForm, because: `${who} "${name.slice(0, 80)}" submits a form that ${byForm.because}` };
  if (target.url && LINK_ROLES.has(target.role ?? '')) {
    const risk = riskOfPath(pathOf(target.url));
    if (risk) return { risk, matched: target.url, because: `${who} leads to ${target.url}` };
  }
  if (target.visibleText !== undefined && labelsDisagree(target.visibleText, target.text)) {
    return {
      risk: 'send',
      matched: target.text,
      because: `${who} shows "${shown.slice(0, 80)}" but is announced as "${name.slice(0, 80)}": a label that lies may do something else`,
    };
  }
  return { risk: 'write' };
}

/** A payment click (the desktop tier's question), or undefined for any other click. */
export function classifyClickTarget(target: ClickTarget): RiskyClick | undefined {
  const found = classifyClick(target);
  return found.risk === 'payment' && found.matched !== undefined
    ? { risk: 'payment', matched: found.matched, ...(found.because !== undefined && { because: found.because }) }
    : undefined;
}

/** What a submitted form does by where it posts and what it asks for, or undefined when it says nothing. */
function formRisk(form: SubmittedForm): { risk: RiskClass; matched: string; because: string } | undefined {
  const byPath = riskOfPath(pathOf(form.action));
  if (byPath === 'payment') return { risk: 'payment', matched: form.action, because: `posts to ${form.action}` };
  const payFields = form.fields.filter((f) => PAYMENT_FIELD.test(f));
  if (payFields.length > 0) return { risk: 'payment', matched: payFields[0]!, because: `asks for ${payFields.slice(0, 3).join(', ')}` };
  return byPath ? { risk: byPath, matched: form.action, because: `posts to ${form.action}` } : undefined;
}

function pathOf(url: string): string {
  try {
    return new URL(url).pathname;
  } catch {
    return url;
  }
}
