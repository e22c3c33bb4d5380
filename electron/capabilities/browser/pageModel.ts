import { classifyClick, type ClickRisk, type SubmittedForm } from '../../runtime/gui/riskyClick.js';

/** One element of a page snapshot: what assistive technology would announce, with a stable ref. */
export interface PageElement {
  /** Stable for the element's life on the page (`e1`, `e2`, …); target it as `{ ref }`. */
  ref: string;
  role: string;
  /** The accessible name, computed as the browser does (aria-labelledby, aria-label, alt, value, CSS content, text). */
  name: string;
  /** The text the element shows, present only when it differs from `name` (a mismatch is a risk signal). */
  text?: string;
  tag: string;
  href?: string;
  /** For a submit control: the form it submits (where it posts, its field names). */
  form?: SubmittedForm;
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
  method?: string;
  /** Field names, ids and autocomplete tokens of the form's controls. */
  fields?: string[];
}

/** A page as planners see it: untrusted content by definition. */
export interface PageModel {
  url: string;
  title: string;
  elements: PageElement[];
  /** Ref of the element that has keyboard focus (a key press without a target goes there). */
  focused?: string;
}

/**
 * The click risk of a page element: its accessible name and visible text, an `<a href>` judged as
 * a link (text and URL) whatever its role, a submit control by the form it submits.
 */
export function clickRisk(el: Pick<PageElement, 'role' | 'name' | 'href' | 'text' | 'form'>): ClickRisk {
  return classifyClick({
    text: el.name,
    ...(el.text !== undefined && { visibleText: el.text }),
    ...(el.href ? { role: 'link', url: el.href } : { role: el.role }),
    ...(el.form && { form: el.form }),
  });
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
  // CSS generated content is part of what an element shows and announces (::before/::after).
  const generated = (el, pseudo) => {
    const content = getComputedStyle(el, pseudo).content;
    if (!content || content === 'none' || content === 'normal') return '';
    let out = '';
    for (const m of content.matchAll(/"((?:[^"\\]|\\.)*)"|attr\(([\w-]+)\)/g)) out += m[1] !== undefined ? m[1].replace(/\\(.)/g, '$1') : (el.getAttribute(m[2]) ?? '');
    return out;
  };
  const hidden = (el) => {
    const style = getComputedStyle(el);
    return style.display === 'none' || style.visibility === 'hidden' || el.getAttribute('aria-hidden') === 'true';
  };
  // Name from content (accname): text, generated content and image alts of the visible subtree.
  const contentText = (el) => {
    let out = generated(el, '::before');
    for (const node of el.childNodes) {
      if (node.nodeType === Node.TEXT_NODE) out += node.textContent;
      else if (node.nodeType === Node.ELEMENT_NODE && !hidden(node)) {
        out += node.tagName === 'IMG' ? (node.getAttribute('alt') ?? '') : ' ' + contentText(node) + ' ';
      }
    }
    return out + generated(el, '::after');
  };
  const nameOf = (el) => {
    const labelledBy = el.getAttribute('aria-labelledby');
    if (labelledBy) {
      const named = labelledBy.split(/\s+/).map((id) => { const ref = document.getElementById(id); return ref ? contentText(ref) : ''; }).join(' ');
      if (named.trim()) return named;
    }
    const label = el.getAttribute('aria-label');
    if (label && label.trim()) return label;
    if (el.tagName === 'INPUT' && el.type === 'image') return el.getAttribute('alt') || el.value || el.title || 'Submit';
    if (el.tagName === 'INPUT' && ['button', 'submit', 'reset'].includes(el.type)) {
      return el.value || (el.type === 'submit' ? 'Submit' : el.type === 'reset' ? 'Reset' : '');
    }
    if (el.tagName === 'IMG') return el.getAttribute('alt') ?? '';
    if (['INPUT', 'TEXTAREA', 'SELECT'].includes(el.tagName)) {
      const labels = el.labels ? [...el.labels].map((l) => l.textContent ?? '').join(' ') : '';
      return labels || el.getAttribute('placeholder') || el.getAttribute('name') || el.title || '';
    }
    return contentText(el) || el.title || '';
  };
  // What the element shows; input images show a picture, so only their name speaks for them.
  const shownOf = (el) => {
    if (el.tagName === 'INPUT') return ['button', 'submit', 'reset'].includes(el.type) ? el.value : undefined;
    if (['TEXTAREA', 'SELECT', 'IMG'].includes(el.tagName)) return undefined;
    return contentText(el);
  };
  const fieldsOf = (form) =>
    [...form.elements].flatMap((c) => [c.name, c.id, c.getAttribute('autocomplete')]).filter((v) => v).slice(0, 50);
  const isSubmit = (el) =>
    (el.tagName === 'BUTTON' && el.type === 'submit') || (el.tagName === 'INPUT' && ['submit', 'image'].includes(el.type));
  const formOf = (el) =>
    isSubmit(el) && el.form
      ? { action: el.formAction || el.form.action, method: (el.getAttribute('formmethod') || el.form.method || 'get').toLowerCase(), fields: fieldsOf(el.form) }
      : undefined;
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
    const button = [...el.form.elements].find(isSubmit);
    const form = { method: (el.form.method || 'get').toLowerCase(), fields: fieldsOf(el.form) };
    if (!button) return { name: '', action: el.form.action, ...form };
    return { ref: refOf(button), name: nameOf(button).replace(/\s+/g, ' ').trim().slice(0, 200), ...formOf(button) };
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
    const shown = shownOf(el)?.replace(/\s+/g, ' ').trim().slice(0, 200);
    if (shown !== undefined && shown !== item.name) item.text = shown;
    if (el.tagName === 'A' && el.href) item.href = el.href;
    const form = formOf(el);
    if (form) item.form = form;
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
