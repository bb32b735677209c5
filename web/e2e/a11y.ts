import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Locator, Page } from 'playwright-core';
import { expect } from 'vitest';

/**
 * Accessibility probes of the e2e tests: axe-core's verdict on what a page
 * shows, where Tab really goes (every control reached, nothing focused out
 * of sight), and a dialog's keyboard contract (trap, Escape, focus back).
 */

const require = createRequire(import.meta.url);
/**
 * axe's source, evaluated through the DevTools protocol: the app's CSP
 * (script-src 'self') rightly refuses an injected <script> tag.
 */
const AXE_SOURCE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

/** The part of axe's result the reports use. */
interface AxeViolation {
  id: string;
  impact?: string | null;
  help: string;
  nodes: { target: unknown[]; failureSummary?: string }[];
}

/** The axe global the injected script defines, as far as it is used here. */
interface AxeGlobal {
  run(context: Document, options: { resultTypes: string[] }): Promise<{ violations: AxeViolation[] }>;
}

const BLOCKING_IMPACTS = new Set(['serious', 'critical']);

/**
 * Runs axe on the whole document as it is now and returns one readable line
 * per serious or critical violation (rule, help, the offending elements),
 * prefixed with `where` (route, viewport, dialog).
 */
export async function axeProblems(page: Page, where: string): Promise<string[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(`${AXE_SOURCE}\n;'axe' in window`);
  const violations = await page.evaluate(async () => {
    const { axe } = window as unknown as { axe: AxeGlobal };
    const result = await axe.run(document, { resultTypes: ['violations'] });
    return result.violations.map(({ id, impact, help, nodes }) => ({
      id,
      impact,
      help,
      nodes: nodes.map(({ target, failureSummary }) => ({ target, failureSummary })),
    }));
  });
  return violations
    .filter((violation) => BLOCKING_IMPACTS.has(violation.impact ?? ''))
    .map(({ id, impact, help, nodes }) => {
      const targets = nodes.map((node) => `    ${node.target.join(' ')}${node.failureSummary ? `: ${node.failureSummary.replace(/\s+/g, ' ')}` : ''}`);
      return `[${where}] ${impact ?? ''} ${id}: ${help}\n${targets.join('\n')}`;
    });
}

/** What walking the page with Tab found. */
export interface TabWalk {
  /** Visible, enabled controls Tab never reached, described for a report. */
  unreached: string[];
  /** Controls Tab focused while they could not be seen (transparent, hidden, collapsed or off the page). */
  focusedUnseen: string[];
}

/** Everything a user may operate; whether Tab should reach it is decided per element. */
const NATIVE_CONTROLS = 'a[href], button, input:not([type="hidden"]), select, textarea, summary, [contenteditable=""], [contenteditable="true"]';
/** Elements that say they are controls: without a tabindex they are mouse-only, which is what this looks for. */
const WIDGET_ROLES = ['button', 'link', 'checkbox', 'radio', 'switch', 'tab', 'menuitem', 'option', 'slider', 'spinbutton', 'combobox', 'textbox']
  .map((role) => `[role="${role}"]`)
  .join(', ');
const CONTROLS = `${NATIVE_CONTROLS}, ${WIDGET_ROLES}, [tabindex]`;
/** Widgets that take one Tab stop and move inside with the arrow keys. */
const COMPOSITES = '[role="tablist"], [role="menu"], [role="menubar"], [role="radiogroup"], [role="listbox"], [role="toolbar"], [role="grid"], [role="tree"]';
const MARK = 'data-a11y-control';
const GROUP = 'data-a11y-group';

/**
 * Presses Tab from the top of the document until focus comes round again and
 * reports the controls never reached, and those focused while out of sight.
 * A control inside a composite widget (tabs, a menu, a radio group) counts as
 * reached when its widget got focus: those move with arrow keys.
 */
export async function walkWithTab(page: Page): Promise<TabWalk> {
  const total = await page.evaluate(
    ({ controls, composites, mark, group }) => {
      for (const attribute of [mark, group]) document.querySelectorAll(`[${attribute}]`).forEach((element) => element.removeAttribute(attribute));
      let count = 0;
      for (const element of Array.from(document.querySelectorAll(controls.all))) {
        if (!(element instanceof HTMLElement) || element.matches(':disabled')) continue;
        const shown =
          element.checkVisibility({ checkOpacity: true, checkVisibilityCSS: true }) &&
          element.getClientRects().length > 0 &&
          !element.closest('[aria-hidden="true"], [inert]');
        if (!shown) continue;
        // Plain elements with tabindex=-1 are focus targets for scripts (the dialog box, the toast region), not controls.
        if (!element.matches(`${controls.native}, ${controls.roles}`) && element.tabIndex < 0) continue;
        const widget = element.closest(composites);
        element.setAttribute(mark, String(count));
        if (widget) {
          if (!widget.hasAttribute(group)) widget.setAttribute(group, `widget-${count}`);
          element.setAttribute(group, widget.getAttribute(group) ?? '');
        } else if (element instanceof HTMLInputElement && element.type === 'radio') {
          element.setAttribute(group, `radio-${element.name}`);
        }
        count += 1;
      }
      // Focus the body itself, so the next Tab starts at the top whatever had focus.
      document.body.tabIndex = -1;
      document.body.focus();
      document.body.removeAttribute('tabindex');
      return count;
    },
    { controls: { all: CONTROLS, native: NATIVE_CONTROLS, roles: WIDGET_ROLES }, composites: COMPOSITES, mark: MARK, group: GROUP },
  );

  const seen: string[] = [];
  const unseen = new Set<string>();
  // Room to go round once with some to spare; it stops as soon as focus is back where it started.
  for (let pressed = 0; pressed < total * 2 + 10; pressed += 1) {
    await page.keyboard.press('Tab');
    const focused = await page.evaluate(async (mark) => {
      const element = document.activeElement;
      if (!(element instanceof HTMLElement) || element === document.body) return null;
      // Judge what the user sees once focus styles have finished moving in (a transition of `top`, a fade of opacity).
      const moving = document.getAnimations().filter((animation) => animation.playState === 'running' && animation.effect?.getTiming().iterations !== Infinity);
      await Promise.all(moving.map((animation) => animation.finished.catch(() => undefined)));
      const rect = element.getBoundingClientRect();
      const labelledBy = element instanceof HTMLInputElement ? Array.from(element.labels ?? []) : [];
      // A visually hidden input whose visible label shows the focus (the file pickers) is seen through its label.
      const seenThrough = [element, ...labelledBy].some((candidate) => {
        const box = candidate.getBoundingClientRect();
        return (
          candidate.checkVisibility({ checkOpacity: true, checkVisibilityCSS: true }) &&
          box.width > 1 &&
          box.height > 1 &&
          box.right + window.scrollX > 0 &&
          box.bottom + window.scrollY > 0 &&
          !candidate.closest('[aria-hidden="true"], [inert]')
        );
      });
      const name = element.getAttribute('aria-label') ?? element.textContent?.trim().replace(/\s+/g, ' ').slice(0, 40) ?? '';
      const role = element.getAttribute('role') ?? element.tagName.toLowerCase();
      const cls = typeof element.className === 'string' && element.className ? `.${element.className.trim().split(/\s+/).join('.')}` : '';
      return {
        id: element.getAttribute(mark) ?? `${role}${cls}`,
        unseen: seenThrough ? null : `${role}${cls} "${name}" at ${Math.round(rect.left)},${Math.round(rect.top)} ${Math.round(rect.width)}x${Math.round(rect.height)}`,
      };
    }, MARK);
    if (!focused) continue;
    if (focused.id === seen[0]) break;
    seen.push(focused.id);
    if (focused.unseen) unseen.add(focused.unseen);
  }

  const unreached = await page.evaluate(
    ({ reachedIds, mark, group }) => {
      const reached = new Set(reachedIds);
      const reachedGroups = new Set(
        reachedIds.map((id) => document.querySelector(`[${mark}="${id}"]`)?.getAttribute(group)).filter((name): name is string => Boolean(name)),
      );
      const missed: string[] = [];
      for (const element of Array.from(document.querySelectorAll<HTMLElement>(`[${mark}]`))) {
        const name = element.getAttribute(group);
        if (reached.has(element.getAttribute(mark) ?? '') || (name && reachedGroups.has(name))) continue;
        const label = element.getAttribute('aria-label') ?? element.textContent?.trim().replace(/\s+/g, ' ').slice(0, 40) ?? '';
        const role = element.getAttribute('role') ?? element.tagName.toLowerCase();
        const cls = typeof element.className === 'string' && element.className ? `.${element.className.trim().split(/\s+/).join('.')}` : '';
        missed.push(`${role}${cls} "${label}" (tabindex ${element.tabIndex})`);
      }
      return missed;
    },
    { reachedIds: seen, mark: MARK, group: GROUP },
  );
  return { unreached, focusedUnseen: [...unseen] };
}

/** True while the page's focus is inside `scope`. */
export function holdsFocus(scope: Locator): Promise<boolean> {
  return scope.evaluate((element) => element.contains(document.activeElement));
}

/** True while `control` itself has the page's focus. */
export function hasFocus(control: Locator): Promise<boolean> {
  return control.evaluate((element) => element === document.activeElement);
}

/**
 * The keyboard contract of an open modal dialog: Shift+Tab (first, from
 * where focus lands on opening) and Tab go round inside it (presses enough to
 * wrap twice; focus is checked after each) reaching every control, and
 * Escape closes it and gives focus back to `opener`.
 */
export async function expectDialogKeyboard(page: Page, dialog: Locator, opener: Locator, where: string): Promise<void> {
  await dialog.waitFor();
  expect(await holdsFocus(dialog), `${where}: focus moves into the dialog when it opens`).toBe(true);
  // Each control as its position among the dialog's elements; what Tab should stop at.
  const controls = await dialog.evaluate((element) => {
    const all = Array.from(element.querySelectorAll<HTMLElement>('*'));
    return all
      .filter(
        (control) =>
          control.matches('a[href], button, input, select, textarea, [tabindex]') &&
          !control.matches(':disabled') &&
          control.tabIndex >= 0 &&
          control.getClientRects().length > 0 &&
          control.checkVisibility({ checkVisibilityCSS: true }),
      )
      .map((control) => all.indexOf(control));
  });
  for (const key of ['Shift+Tab', 'Tab']) {
    const reached = new Set<number>();
    for (let i = 0; i < controls.length * 2 + 2; i += 1) {
      await page.keyboard.press(key);
      const inside = await dialog.evaluate((element) => {
        const active = document.activeElement;
        if (!active || !element.contains(active)) return null;
        return Array.from(element.querySelectorAll('*')).indexOf(active);
      });
      expect(inside, `${where}: ${key} press ${i + 1} left the dialog`).not.toBeNull();
      reached.add(inside ?? -1);
    }
    expect(controls.filter((index) => !reached.has(index)), `${where}: ${key} reaches every control of the dialog`).toEqual([]);
  }
  await page.keyboard.press('Escape');
  await dialog.waitFor({ state: 'detached' });
  expect(await hasFocus(opener), `${where}: focus goes back to the control that opened the dialog`).toBe(true);
}
