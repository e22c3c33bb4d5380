import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { REPO_ROOT } from '../../support/cliSandbox.js';

/** axe-core from node_modules, evaluated in the page (DevTools evaluation is not held by the UI's CSP): nothing is fetched at test time. */
const AXE_SOURCE = readFileSync(path.join(REPO_ROOT, 'node_modules', 'axe-core', 'axe.min.js'), 'utf8');

/** One axe finding the tests refuse: its rule, impact, and where on the page. */
export interface AxeProblem {
  id: string;
  impact: string;
  help: string;
  targets: string[];
}

/**
 * Runs axe-core (WCAG 2 A/AA and best-practice rules) on the page as it is now and returns the
 * serious and critical violations, each with the selectors it hit, so a failure says what to fix.
 */
export async function seriousAxeViolations(page: Page, scope = 'body'): Promise<AxeProblem[]> {
  if (!(await page.evaluate<boolean>(`typeof window.axe === 'object'`))) await page.evaluate(AXE_SOURCE);
  const script = `window.axe.run(document.querySelector(${JSON.stringify(scope)}), { resultTypes: ['violations'] })
    .then((r) => r.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => ({ id: v.id, impact: v.impact, help: v.help, targets: v.nodes.map((n) => n.target.join(' ')) })))`;
  return page.evaluate<AxeProblem[]>(script);
}
