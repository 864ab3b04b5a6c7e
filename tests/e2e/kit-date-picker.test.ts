import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openKit, type OpenedKit } from './kit/harness';

const TABLET = { width: 800, height: 1000 };
const PHONE = { width: 360, height: 740 };
const SCREENSHOTS = process.env.KIT_SCREENSHOT_DIR ?? '/tmp';

// The calendar opens on the current month when the field is empty; the test picks days of that month. The
// page's "now" is fixed (Friday 15 March 2024, as in the unit tests), so no day of the run changes the answers.
const NOW = new Date(2024, 2, 15, 10, 0, 0);
const month = '2024-03';
const displayMonth = '03.2024';

function section(page: Page): Locator {
  return page.locator('[data-kit="date-picker"]');
}

function dayButton(page: Page, day: string): Locator {
  return page.locator(`[role="dialog"] [data-day="${month}-${day}"]:not([data-outside]) button`);
}

async function committed(page: Page, name: 'single' | 'range' | 'time'): Promise<string> {
  return (await page.locator(`[data-kit-value="date-picker-${name}"]`).textContent()) ?? '';
}

/**
 * Resolves once the page's finite CSS animations and transitions have run (the phone sheet's slide, a day's
 * highlight), so a screenshot shows where things stop however slowly this machine draws. One that is
 * cancelled (its element went away) counts as done.
 */
async function animationsDone(page: Page): Promise<void> {
  await page.evaluate(() =>
    Promise.all(
      document
        .getAnimations()
        .filter((animation) => animation.effect?.getComputedTiming().endTime !== Infinity)
        .map((animation) => animation.finished.then(() => undefined, () => undefined)),
    ),
  );
}

describe('the date picker in Chromium', () => {
  let kit: OpenedKit;

  beforeAll(async () => {
    kit = await openKit({ viewport: TABLET, fixedNow: NOW });
    await section(kit.page).waitFor();
  });

  afterAll(async () => {
    await kit?.close();
  });

  it('picks a date: the Select button commits it in the model format', async () => {
    const { page } = kit;
    const input = section(page).getByRole('combobox', { name: 'Срок' });
    await input.click();
    expect(await input.getAttribute('aria-expanded')).toBe('true');
    const select = page.getByRole('dialog').getByRole('button', { name: 'Выбрать' });
    expect(await select.isDisabled()).toBe(true);
    await dayButton(page, '10').click();
    expect(await select.isDisabled()).toBe(false);
    await select.click();
    expect(await committed(page, 'single')).toBe(`${month}-10`);
    expect(await input.inputValue()).toBe(`10.${displayMonth}`);
    expect(await page.getByRole('dialog').count()).toBe(0);
  });

  it('picks a range with two clicks', async () => {
    const { page } = kit;
    const input = section(page).getByRole('combobox', { name: 'Период отчёта' });
    await input.click();
    await dayButton(page, '03').click();
    await dayButton(page, '07').click();
    await animationsDone(page);
    await page.screenshot({ path: `${SCREENSHOTS}/kit-date-picker-800.png`, fullPage: true });
    await page.getByRole('dialog').getByRole('button', { name: 'Выбрать' }).click();
    expect(await committed(page, 'range')).toBe(`${month}-03 / ${month}-07`);
    expect(await input.inputValue()).toBe(`03.${displayMonth} – 07.${displayMonth}`);
  });

  it('sets the range from a preset, and opens the calendar for the custom choice', async () => {
    const { page } = kit;
    const presets = section(page).getByRole('combobox', { name: 'Период', exact: true });
    await presets.selectOption('month');
    expect(await committed(page, 'range')).toBe('2024-03-01 / 2024-03-31');
    expect(await page.getByRole('dialog').count()).toBe(0);
    await presets.selectOption('custom');
    await page.getByRole('dialog').waitFor();
    // Focus is in the grid, ready for the arrow keys.
    expect(await page.evaluate(() => document.activeElement?.closest('[role="grid"]') !== null)).toBe(true);
    await page.keyboard.press('Escape');
    expect(await page.getByRole('dialog').count()).toBe(0);
    const input = section(page).getByRole('combobox', { name: 'Период отчёта' });
    expect(await input.evaluate((element) => element === document.activeElement)).toBe(true);
  });

  it('turns months with the wheel without scrolling the page', async () => {
    const { page } = kit;
    const input = section(page).getByRole('combobox', { name: 'Срок' });
    await input.click();
    const dialog = page.getByRole('dialog');
    expect(await dialog.getByRole('grid').getAttribute('aria-label')).toBe('Март 2024');
    const scrollBefore = await page.evaluate(() => window.scrollY);
    await dialog.getByRole('grid').hover();
    await page.mouse.wheel(0, 120);
    // Waits for the next month's grid itself (state), not for a span of time.
    await dialog.getByRole('grid', { name: 'Апрель 2024', exact: true }).waitFor();
    expect(await page.evaluate(() => window.scrollY)).toBe(scrollBefore);
    await page.keyboard.press('Escape');
  });

  it('opens as a full-width sheet on a 360 px phone, without sideways scrolling', async () => {
    const { page } = kit;
    await page.setViewportSize(PHONE);
    const input = section(page).getByRole('combobox', { name: 'Встреча' });
    await input.scrollIntoViewIfNeeded();
    await input.click();
    const dialog = page.getByRole('dialog');
    expect(await dialog.getAttribute('data-layout')).toBe('mobile');
    const box = await dialog.boundingBox();
    expect(box?.width).toBe(PHONE.width);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    // The sheet slides in; the picture is of where it stops.
    await animationsDone(page);
    await page.screenshot({ path: `${SCREENSHOTS}/kit-date-picker-360.png` });
    // Auto-apply with a time: changing the hour commits at once.
    await dialog.getByRole('combobox', { name: 'Часы' }).selectOption('17');
    expect(await committed(page, 'time')).toBe('2024-03-15 17:30:00');
    await dialog.getByRole('button', { name: 'Закрыть' }).click();
    await page.setViewportSize(TABLET);
  });

  it('speaks English when the app does', async () => {
    const { page } = kit;
    await page.locator('[data-locale="en"]').click();
    const input = section(page).getByRole('combobox', { name: 'Due date' });
    await input.click();
    const dialog = page.getByRole('dialog');
    expect(await dialog.getByRole('button', { name: 'Select', exact: true }).count()).toBe(1);
    expect(await dialog.getByRole('button', { name: 'Close', exact: true }).count()).toBe(1);
    await page.screenshot({ path: `${SCREENSHOTS}/kit-date-picker-800-en.png`, fullPage: true });
    await page.keyboard.press('Escape');
  });
});
