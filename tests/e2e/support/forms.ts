// Fills forms the way a person does, reaching fields only through the shared conventions: every input has
// `name` equal to its field name and a visible label; submit buttons are `type="submit"`. A field may be a
// text input, a native select, a radio group or the UI kit's own select (a hidden input beside a combobox).
import type { Locator, Page } from 'playwright-core';
import { waitUntil } from './wait';

type Scope = Page | Locator;

function pageOf(scope: Scope): Page {
  return 'page' in scope && typeof scope.page === 'function' ? scope.page() : (scope as Page);
}

/** Sets one field by its name; `value` is the text to type or the option id to choose. */
export async function setField(scope: Scope, name: string, value: string): Promise<void> {
  const all = scope.locator(`[name="${name}"]`);
  await all.first().waitFor({ state: 'attached' });
  const field = all.first();
  const kind = await field.evaluate((el) => ({
    tag: el.tagName.toLowerCase(),
    type: el instanceof HTMLInputElement ? el.type : '',
  }));

  if (kind.tag === 'select') {
    const values = await field.locator('option').evaluateAll((options) =>
      options.filter((o) => !(o as HTMLOptionElement).disabled).map((o) => (o as HTMLOptionElement).value),
    );
    const chosen = values.includes(value) ? value : values.find((v) => v && !/other/i.test(v));
    if (!chosen) throw new Error(`select ${name} offers no usable option (${values.join(', ')})`);
    await field.selectOption(chosen);
    return;
  }
  if (kind.type === 'radio' || kind.type === 'checkbox') {
    const option = scope.locator(`[name="${name}"][value="${value}"]`);
    await ((await option.count()) > 0 ? option.first() : field).check();
    return;
  }
  if (kind.type === 'hidden') {
    await chooseInCustomSelect(scope, field, name, value);
    return;
  }
  await field.fill(value);
  // Validation runs on blur and change (spec section 5), as it does for a person tabbing on.
  await field.blur();
}

/** The UI kit's select: a hidden input carries the value; a combobox beside it opens a list of options. */
async function chooseInCustomSelect(scope: Scope, hidden: Locator, name: string, value: string): Promise<void> {
  const container = hidden.locator('xpath=..');
  const combobox = container.locator('[role="combobox"]');
  const trigger = (await combobox.count()) > 0 ? combobox.first() : container.locator('button, input:not([type="hidden"])').first();
  await trigger.click();
  const page = pageOf(scope);
  const options = page.getByRole('option');
  await options.first().waitFor();
  const byId = page.locator(`[role="option"][data-value="${value}"], [role="option"][data-id="${value}"]`);
  if ((await byId.count()) > 0) {
    await byId.first().click();
  } else {
    const texts = await options.allInnerTexts();
    const index = texts.findIndex((t) => !/друг|other/i.test(t));
    await options.nth(Math.max(index, 0)).click();
  }
  await waitUntil(async () => (await hidden.inputValue()) !== '', { message: `custom select ${name} to take a value` });
}

/**
 * Fills every field of `values` and submits. A form split into steps is handled too: fields that are not
 * on screen yet are filled after the submit button has moved to the next step.
 */
export async function fillAndSubmit(scope: Scope, values: Record<string, string>, maxSteps = 4): Promise<void> {
  let remaining = Object.entries(values);
  // The form is there: a route shows at once, and a form that reads the device first (departments, a card to edit)
  // follows its spinner a moment later.
  const first = remaining[0];
  if (first) await scope.locator(`[name="${first[0]}"]`).first().waitFor({ state: 'attached', timeout: 20_000 });
  for (let step = 0; step < maxSteps && remaining.length > 0; step += 1) {
    const later: Array<[string, string]> = [];
    for (const [name, value] of remaining) {
      if ((await scope.locator(`[name="${name}"]`).count()) > 0) await setField(scope, name, value);
      else later.push([name, value]);
    }
    if (later.length === remaining.length) throw new Error(`fields not found: ${later.map(([n]) => n).join(', ')}`);
    remaining = later;
    await fillPasswordConfirmations(scope, values.password);
    await submit(scope);
  }
  if (remaining.length > 0) throw new Error(`fields never shown: ${remaining.map(([n]) => n).join(', ')}`);
}

/** A "repeat the password" field, if the form has one, gets the same password. */
async function fillPasswordConfirmations(scope: Scope, password: string | undefined): Promise<void> {
  if (password === undefined) return;
  const extra = scope.locator('input[type="password"]:not([name="password"])');
  for (let i = 0; i < (await extra.count()); i += 1) {
    const input = extra.nth(i);
    if ((await input.isVisible()) && (await input.inputValue()) === '') await input.fill(password);
  }
}

export async function submit(scope: Scope): Promise<void> {
  await scope.locator('button[type="submit"]:visible').first().click();
}
