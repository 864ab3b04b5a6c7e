// The select in a real browser (the kit showcase, Russian): typing filters an autocomplete select, a
// choice is made by keyboard; a multiple select takes one option by keyboard and one by pointer and
// stays open; a miss says 'Ничего не найдено'; the menu drops down (or up) from 768 px and is field-wide
// below it; nothing scrolls sideways on a 360 px phone.
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openKit, type OpenedKit } from './kit/harness';
import { ROOT_DIR } from './support/server';
import { waitUntil } from './support/wait';

const SCREENSHOTS = join(ROOT_DIR, 'tests/.artifacts');

function section(page: Page): Locator {
  return page.locator('[data-kit="select"]');
}

function modelOf(page: Page, name: string): Locator {
  return section(page).locator(`[data-kit-value="${name}"]`);
}

/** Titles of the options the open menu of `combobox` shows. */
async function visibleOptions(page: Page, combobox: Locator): Promise<string[]> {
  const listbox = page.locator(`#${await combobox.getAttribute('aria-controls')}`);
  return listbox.getByRole('option').allInnerTexts();
}

describe('the select (kit, 800 px)', () => {
  let kit: OpenedKit;

  beforeAll(async () => {
    kit = await openKit({ viewport: { width: 800, height: 900 } });
    await mkdir(SCREENSHOTS, { recursive: true });
    await section(kit.page).scrollIntoViewIfNeeded();
  });

  afterAll(async () => {
    await kit?.close();
  });

  it('filters an autocomplete select as the user types and takes a match by keyboard', async () => {
    const { page } = kit;
    const city = section(page).getByRole('combobox', { name: 'City (autocomplete)' });
    await city.click();
    expect(await city.getAttribute('aria-expanded')).toBe('true');
    expect(await visibleOptions(page, city)).toHaveLength(9);

    await city.pressSequentially('мос');
    await waitUntil(async () => (await visibleOptions(page, city)).join('|') === 'Москва', { message: "only 'Москва' to be left" });
    // The group heading of the match stays, the other group goes.
    expect(await section(page).getByRole('group', { name: 'Россия' }).count()).toBe(1);
    expect(await section(page).getByRole('group', { name: 'Беларусь' }).count()).toBe(0);
    await page.screenshot({ path: join(SCREENSHOTS, 'kit-select-800-filtered.png') });

    await page.keyboard.press('Enter');
    expect(await modelOf(page, 'city').textContent()).toBe('msk');
    expect(await city.inputValue()).toBe('Москва');
    expect(await city.getAttribute('aria-expanded')).toBe('false');
  });

  it("says 'Ничего не найдено' when nothing matches", async () => {
    const { page } = kit;
    const city = section(page).getByRole('combobox', { name: 'City (autocomplete)' });
    await city.fill('');
    await city.pressSequentially('берлин');
    await section(page).getByRole('status').filter({ hasText: 'Ничего не найдено' }).waitFor();
    expect(await visibleOptions(page, city)).toEqual([]);
    await page.keyboard.press('Escape');
    // Escape puts back the chosen city.
    expect(await city.inputValue()).toBe('Москва');
  });

  it('takes one option by keyboard and one by pointer in a multiple select, staying open', async () => {
    const { page } = kit;
    const departments = section(page).getByRole('combobox', { name: 'Departments (multiple, autocomplete)' });
    await departments.focus();
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    expect(await modelOf(page, 'departments').textContent()).toBe('paint');
    expect(await departments.getAttribute('aria-expanded')).toBe('true');

    await section(page).getByRole('option', { name: 'Отдел качества' }).click();
    expect(await modelOf(page, 'departments').textContent()).toBe('paint,quality');
    expect(await departments.getAttribute('aria-expanded')).toBe('true');
    const selected = section(page).locator('[role="option"][aria-selected="true"]');
    expect(await selected.allInnerTexts()).toEqual(['Малярный участок', 'Отдел качества']);
    await page.screenshot({ path: join(SCREENSHOTS, 'kit-select-800-multiple.png') });

    await page.keyboard.press('Backspace');
    expect(await modelOf(page, 'departments').textContent()).toBe('paint');
    await page.keyboard.press('Escape');
    expect(await departments.getAttribute('aria-expanded')).toBe('false');
  });

  it('applies the value rules: a non-nullable select shows its first option, a multiple one drops unknown values', async () => {
    const { page } = kit;
    expect(await modelOf(page, 'unit').textContent()).toBe('MINUTES');
    expect(await section(page).getByRole('combobox', { name: 'Unit (falls back to the first)' }).textContent()).toBe('Минуты');
    expect(await modelOf(page, 'cities').textContent()).toBe('spb');
  });

  it('drops down under the field, and opens upward when there is no room below', async () => {
    const { page } = kit;
    const unit = section(page).getByRole('combobox', { name: 'Unit (falls back to the first)' });
    const menuOf = async (combobox: Locator) => page.locator(`#${await combobox.getAttribute('aria-controls')}`).locator('xpath=..');

    // Field near the top of the window: room below.
    await unit.evaluate((element) => element.scrollIntoView({ block: 'start' }));
    await unit.click();
    const menu = await menuOf(unit);
    const fieldBox = (await unit.locator('xpath=ancestor::div[contains(@class,"field__control")]').boundingBox())!;
    let menuBox = (await menu.boundingBox())!;
    expect(menuBox.y).toBeGreaterThanOrEqual(fieldBox.y + fieldBox.height);
    await page.keyboard.press('Escape');

    // Field at the bottom of the window: no room below, more above.
    await unit.evaluate((element) => element.scrollIntoView({ block: 'end' }));
    await unit.click();
    menuBox = (await menu.boundingBox())!;
    const bottomField = (await unit.locator('xpath=ancestor::div[contains(@class,"field__control")]').boundingBox())!;
    expect(menuBox.y + menuBox.height).toBeLessThanOrEqual(bottomField.y);
    await page.keyboard.press('Escape');
  });

  it('looks right at 800 px', async () => {
    const { page } = kit;
    const city = section(page).getByRole('combobox', { name: 'City (autocomplete)' });
    await city.evaluate((element) => element.scrollIntoView({ block: 'start' }));
    await city.click();
    await section(page).screenshot({ path: join(SCREENSHOTS, 'kit-select-800.png') });
    await page.keyboard.press('Escape');

    const responsible = section(page).getByRole('combobox', { name: 'Responsible (pictures)' });
    await responsible.click();
    // The person on leave is offered but cannot be chosen.
    expect(await section(page).getByRole('option', { name: 'Сидоров Олег (в отпуске)' }).getAttribute('aria-disabled')).toBe('true');
    await page.screenshot({ path: join(SCREENSHOTS, 'kit-select-800-pictures.png') });
    await page.keyboard.press('Escape');
  });
});

describe('the select (kit, 360 px phone)', () => {
  let kit: OpenedKit;

  beforeAll(async () => {
    kit = await openKit({ viewport: { width: 360, height: 740 } });
    await mkdir(SCREENSHOTS, { recursive: true });
  });

  afterAll(async () => {
    await kit?.close();
  });

  it('opens a field-wide menu under the field, without sideways scrolling', async () => {
    const { page } = kit;
    const city = section(page).getByRole('combobox', { name: 'City (autocomplete)' });
    await city.evaluate((element) => element.scrollIntoView({ block: 'end' }));
    await city.click();
    const menu = page.locator(`#${await city.getAttribute('aria-controls')}`).locator('xpath=..');
    await menu.waitFor({ state: 'visible' });
    const control = (await city.locator('xpath=ancestor::div[contains(@class,"field__control")]').boundingBox())!;
    const menuBox = (await menu.boundingBox())!;
    expect(Math.round(menuBox.width)).toBe(Math.round(control.width));
    expect(menuBox.y).toBeGreaterThanOrEqual(control.y + control.height);
    // The page scrolled the menu into view.
    expect(menuBox.y + menuBox.height).toBeLessThanOrEqual(740 + 1);
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    await page.screenshot({ path: join(SCREENSHOTS, 'kit-select-360-open.png') });
    await page.keyboard.press('Escape');

    await section(page).screenshot({ path: join(SCREENSHOTS, 'kit-select-360.png') });
  });
});
