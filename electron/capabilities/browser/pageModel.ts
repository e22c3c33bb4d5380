import { classifyClick, type ClickRisk } from '../../runtime/gui/riskyClick.js';

/** One element of a page snapshot: what assistive technology would announce, with a stable ref. */
export interface PageElement {
  /** Stable for the element's life on the page (`e1`, `e2`, …); target it as `{ ref }`. */
  ref: string;
  role: string;
  name: string;
  tag: string;
  href?: string;
  value?: string;
  disabled?: boolean;
  /** Heading level for headings. */
  level?: number;
  /** For a text field in a form: the control Enter would submit it with (implicit submission). */
  submit?: FormSubmit;
}

/** The control a form's implicit submission activates: its default button, or the bare form. */
export interface FormSubmit {
  /** The default button's ref (absent when the form has none). */
  ref?: string;
  /** The default button's label ('' for a form with no button). */
  name: string;
  /** Where the form posts. */
  action: string;
}

/** A page as planners see it: untrusted content by definition. */
export interface PageModel {
  url: string;
  title: string;
  elements: PageElement[];
  /** Ref of the element that has keyboard focus (a key press without a target goes there). */
  focused?: string;
}

/** The click risk of a page element: an `<a href>` is judged as a link (text and URL), whatever its role. */
export function clickRisk(el: Pick<PageElement, 'role' | 'name' | 'href'>): ClickRisk {
  return classifyClick({ text: el.name, ...(el.href ? { role: 'link', url: el.href } : { role: el.role }) });
}

/** The attribute that carries an element's ref in the page. */
export const REF_ATTRIBUTE = 'data-agent-desk-ref';

/**
 * In-page script (plain JS: it runs in the browser): lists visible interactive elements and
 * headings with role and accessible name, giving each a ref kept on the element, so refs stay
 * stable across snapshots of the same page. Evaluate as `(script)(REF_ATTRIBUTE)`.
 */
export const PAGE_MODEL_SCRIPT = String.raw`function collectPageModel(refAttribute) {
  const selector =
    'a[href],button,input,select,textarea,summary,[role],[onclick],[contenteditable="true"],h1,h2,h3,h4,h5,h6';
  const root = document.documentElement;
  let seq = Number(root.getAttribute(refAttribute + '-seq') ?? '0');
  const implicitRole = (el) => {
    const tag = el.tagName.toLowerCase();
    if (tag === 'a') return 'link';
    if (tag === 'button' || tag === 'summary') return 'button';
    if (tag === 'select') return 'combobox';
    if (tag === 'textarea') return 'textbox';
    if (/^h[1-6]$/.test(tag)) return 'heading';
    if (tag === 'input') {
      const type = el.type;
      if (['button', 'submit', 'reset', 'image'].includes(type)) return 'button';
      if (type === 'checkbox') return 'checkbox';
      if (type === 'radio') return 'radio';
      return 'textbox';
    }
    return 'generic';
  };
  const nameOf = (el) => {
    const label = el.getAttribute('aria-label');
    if (label) return label;
    const labelledBy = el.getAttribute('aria-labelledby');
    if (labelledBy) return labelledBy.split(/\s+/).map((id) => (document.getElementById(id)?.textContent ?? '')).join(' ');
    if (el.tagName === 'INPUT' && ['button', 'submit', 'reset'].includes(el.type)) return el.value;
    if (['INPUT', 'TEXTAREA', 'SELECT'].includes(el.tagName)) {
      const labels = el.labels ? [...el.labels].map((l) => l.textContent ?? '').join(' ') : '';
      return labels || el.getAttribute('placeholder') || el.getAttribute('name') || '';
    }
    return el.innerText ?? el.textContent ?? '';
  };
  const refOf = (el) => {
    let ref = el.getAttribute(refAttribute);
    if (!ref) {
      ref = 'e' + ++seq;
      el.setAttribute(refAttribute, ref);
    }
    return ref;
  };
  const nonText = ['button', 'submit', 'reset', 'image', 'checkbox', 'radio', 'file', 'hidden', 'range', 'color'];
  // Implicit submission (HTML spec): Enter in a form's text field activates the form's default button.
  const submitOf = (el) => {
    if (el.tagName !== 'INPUT' || nonText.includes(el.type) || !el.form) return undefined;
    const button = [...el.form.elements].find(
      (c) => (c.tagName === 'BUTTON' && c.type === 'submit') || (c.tagName === 'INPUT' && ['submit', 'image'].includes(c.type)),
    );
    if (!button) return { name: '', action: el.form.action };
    return { ref: refOf(button), name: nameOf(button).replace(/\s+/g, ' ').trim().slice(0, 200), action: button.formAction || el.form.action };
  };
  const elements = [];
  for (const el of document.querySelectorAll(selector)) {
    const style = getComputedStyle(el);
    if (el.getClientRects().length === 0 || style.visibility === 'hidden') continue;
    const ref = refOf(el);
    const tag = el.tagName.toLowerCase();
    const item = {
      ref,
      role: el.getAttribute('role') ?? implicitRole(el),
      name: nameOf(el).replace(/\s+/g, ' ').trim().slice(0, 200),
      tag,
    };
    if (el.tagName === 'A' && el.href) item.href = el.href;
    const isSecret = el.tagName === 'INPUT' && el.type === 'password';
    if (('value' in el) && el.tagName !== 'BUTTON' && !isSecret) {
      item.value = el.value.slice(0, 200);
    }
    if (el.disabled) item.disabled = true;
    if (/^h[1-6]$/.test(tag)) item.level = Number(tag[1]);
    const submit = submitOf(el);
    if (submit) item.submit = submit;
    elements.push(item);
  }
  root.setAttribute(refAttribute + '-seq', String(seq));
  const active = document.activeElement;
  const focused = active && active !== document.body ? active.getAttribute(refAttribute) : null;
  return { url: location.href, title: document.title, elements, ...(focused ? { focused } : {}) };
}`;
