// The text field, masks, tabs and collapse of the UI kit in Chromium: masks format as the user types
// and give the model the unmasked value, the phone mask's placeholder shows on focus and not on hover,
// the tabs answer the keyboard, the collapse closes for real; screenshots at phone and tablet width.
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openKit, type OpenedKit } from './kit/harness';
import { ROOT_DIR } from './support/server';
import { waitUntil } from './support/wait';

const SHOTS_DIR = join(ROOT_DIR, 'tests/.artifacts/kit-fields');

const section = (page: Page) => page.locator('section[data-kit="fields"]');
const model = (page: Page, name: string) => section(page).locator(`[data-kit-value="${name}"]`);

describe('text fields in the kit (Chromium)', () => {
  let kit: OpenedKit;

  beforeAll(async () => {
    kit = await openKit({ locale: 'en', viewport: { width: 800, height: 1000 } });
    await mkdir(SHOTS_DIR, { recursive: true });
  });

  afterAll(async () => {
    await kit?.close();
  });

  it('filters keys, clamps on blur and counts textarea characters', async () => {
    const { page } = kit;
    const employees = section(page).getByLabel('Employees (int, 1-500)');
    await employees.pressSequentially('9a9.9');
    expect(await employees.inputValue()).toBe('999');
    await employees.blur();
    expect(await employees.inputValue()).toBe('500');
    await section(page).getByLabel('Comment').pressSequentially('Hello');
    expect(await section(page).getByText('5 / 200 characters').count()).toBe(1);
    await page.screenshot({ path: join(SHOTS_DIR, 'fields-800.png'), fullPage: true });
  });

  it('formats masked values as typed and keeps the unmasked model value', async () => {
    const { page } = kit;
    await section(page).getByRole('tab', { name: 'Fields' }).focus();
    await page.keyboard.press('ArrowRight');
    expect(await section(page).getByRole('tab', { name: 'Masks' }).getAttribute('aria-selected')).toBe('true');

    const amount = section(page).getByLabel('Amount');
    await amount.pressSequentially('12k');
    expect(await amount.inputValue()).toBe('12,000');
    expect(await model(page, 'amount').textContent()).toBe('12000');

    const phone = section(page).getByLabel('Phone');
    await phone.hover();
    expect(await phone.getAttribute('placeholder')).toBeNull();
    await phone.focus();
    expect(await phone.getAttribute('placeholder')).toBe('+7 (___) ___-__-__');
    await phone.pressSequentially('9123456789');
    expect(await phone.inputValue()).toBe('+7 (912) 345-67-89');
    expect(await model(page, 'phone').textContent()).toBe('+79123456789');

    const usd = section(page).getByLabel('Price, USD');
    await usd.pressSequentially('1234567.5');
    await usd.blur();
    expect(await usd.inputValue()).toBe('1,234,567.50');
    await page.screenshot({ path: join(SHOTS_DIR, 'masks-800.png'), fullPage: true });
  });

  it('takes values filled in at once (autofill, Playwright fill) through the masks into a form', async () => {
    const { page } = kit;
    await section(page).getByRole('tab', { name: 'Form' }).click();
    const email = section(page).getByLabel('E-mail');
    const phone = section(page).getByLabel('Phone');
    await email.fill('anna@example.ru');
    await phone.fill('+7 900 123-45-67');
    await phone.blur();
    expect(await phone.inputValue()).toBe('+7 (900) 123-45-67');
    await section(page).getByRole('button', { name: 'Send' }).click();
    await waitUntil(async () => (await model(page, 'contact-form').textContent()) !== '', { message: 'the form to submit' });
    expect(JSON.parse((await model(page, 'contact-form').textContent()) ?? '')).toEqual({ email: 'anna@example.ru', phone: '+79001234567' });
  });

  it('closes the collapse after its transition', async () => {
    const { page } = kit;
    const toggle = section(page).getByRole('button', { name: 'More about these controls' });
    await toggle.click();
    expect(await toggle.getAttribute('aria-expanded')).toBe('true');
    await waitUntil(async () => (await section(page).getByRole('region').isVisible()) === true, { message: 'collapse to open' });
    await toggle.click();
    await waitUntil(async () => (await section(page).locator('.collapse__body').getAttribute('hidden')) !== null, { message: 'collapse to close' });
  });

  it('fits a 360 px phone without sideways scrolling', async () => {
    const { page } = kit;
    await page.setViewportSize({ width: 360, height: 800 });
    await section(page).getByRole('tab', { name: 'Fields' }).click();
    await section(page).getByLabel('Company').focus();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await section(page).screenshot({ path: join(SHOTS_DIR, 'fields-360.png') });
    await section(page).getByRole('tab', { name: 'Masks' }).click();
    await section(page).screenshot({ path: join(SHOTS_DIR, 'masks-360.png') });
  });
});
