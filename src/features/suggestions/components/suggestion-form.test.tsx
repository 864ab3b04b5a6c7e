import { cleanup, render, screen, waitFor } from '@testing-library/react';
import userEvent, { type UserEvent } from '@testing-library/user-event';
import { IntlProvider } from 'react-intl';
import { afterEach, describe, expect, it, vi } from 'vitest';
import en from '../../../../locales/en.json';
import { DialogProvider } from '../../../ui/dialog';
import type { PhotoInput, SuggestionDraft } from '../store';
import { SuggestionForm, toMinorUnits } from './suggestion-form';

afterEach(() => cleanup());

const departments = [
  { id: 'd1', title: 'Casting' },
  { id: 'd2', title: 'Assembly' },
];

function renderForm(onSubmit: (draft: SuggestionDraft, photos: PhotoInput[]) => Promise<void>, goals: { id: string; title: string }[] = []) {
  render(
    <IntlProvider locale="en" messages={en}>
      <DialogProvider>
        <SuggestionForm companyId="c1" departments={departments} goals={goals} onSubmit={onSubmit} />
      </DialogProvider>
    </IntlProvider>,
  );
}

/** The error shown beside a field: the element its aria-describedby points at. */
function errorBeside(field: HTMLElement): string | null {
  if (field.getAttribute('aria-invalid') !== 'true') return null;
  const id = field.getAttribute('aria-describedby');
  return id ? (document.getElementById(id)?.textContent ?? null) : null;
}

async function fillTexts(user: UserEvent) {
  await user.type(screen.getByLabelText(/^Title/), 'Shorter changeover');
  await user.type(screen.getByLabelText(/^Problem/), 'Changeover takes 40 minutes');
  await user.type(screen.getByLabelText(/^Proposed solution/), 'Prepare the tools in advance');
  await user.type(screen.getByLabelText(/^Expected effect/), '30 minutes a shift');
}

describe('the proposal form', () => {
  it('sends nothing and shows the errors beside the fields when required fields are empty', async () => {
    const user = userEvent.setup();
    const onSubmit = vi.fn(() => Promise.resolve());
    renderForm(onSubmit);
    await user.click(screen.getByRole('button', { name: 'Submit the proposal' }));
    await waitFor(() => expect(errorBeside(screen.getByLabelText(/^Title/))).toBeTruthy());
    expect(errorBeside(screen.getByLabelText(/^Problem/))).toBeTruthy();
    expect(errorBeside(screen.getByRole('combobox', { name: /^Department/ }))).toBeTruthy();
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it('refuses text that is only spaces', async () => {
    const user = userEvent.setup();
    const onSubmit = vi.fn(() => Promise.resolve());
    renderForm(onSubmit);
    await fillTexts(user);
    const title = screen.getByLabelText(/^Title/);
    await user.clear(title);
    await user.type(title, '   ');
    await user.click(screen.getByRole('button', { name: 'Submit the proposal' }));
    await waitFor(() => expect(errorBeside(screen.getByLabelText(/^Title/))).toBeTruthy());
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it('sends the trimmed proposal with its department and no estimate when none was given', async () => {
    const user = userEvent.setup();
    const onSubmit = vi.fn((_draft: SuggestionDraft, _photos: PhotoInput[]) => Promise.resolve());
    renderForm(onSubmit);
    await fillTexts(user);
    await user.click(screen.getByRole('combobox', { name: /^Department/ }));
    const option = screen.getAllByRole('option').find((candidate) => candidate.dataset.id === 'd2');
    if (!option) throw new Error('no option d2');
    await user.click(option);
    await user.click(screen.getByRole('button', { name: 'Submit the proposal' }));
    await waitFor(() => expect(onSubmit).toHaveBeenCalledOnce());
    expect(onSubmit.mock.calls[0]?.[0]).toEqual({
      companyId: 'c1',
      title: 'Shorter changeover',
      problem: 'Changeover takes 40 minutes',
      solution: 'Prepare the tools in advance',
      expectedEffect: '30 minutes a shift',
      effectEstimate: null,
      departmentId: 'd2',
      goalId: null,
    });
    expect(onSubmit.mock.calls[0]?.[1]).toEqual([]);
    // With no goals on the device there is nothing to choose.
    expect(screen.queryByRole('combobox', { name: /^Company goal/ })).toBeNull();
  });

  it('sends the company goal chosen for the proposal', async () => {
    const user = userEvent.setup();
    const onSubmit = vi.fn((_draft: SuggestionDraft, _photos: PhotoInput[]) => Promise.resolve());
    renderForm(onSubmit, [{ id: 'g1', title: 'Lean: Changeovers' }]);
    await fillTexts(user);
    await user.click(screen.getByRole('combobox', { name: /^Department/ }));
    const department = screen.getAllByRole('option').find((candidate) => candidate.dataset.id === 'd2');
    if (!department) throw new Error('no option d2');
    await user.click(department);
    await user.click(screen.getByRole('combobox', { name: /^Company goal/ }));
    const goal = screen.getAllByRole('option').find((candidate) => candidate.dataset.id === 'g1');
    if (!goal) throw new Error('no option g1');
    await user.click(goal);
    await user.click(screen.getByRole('button', { name: 'Submit the proposal' }));
    await waitFor(() => expect(onSubmit).toHaveBeenCalledOnce());
    expect(onSubmit.mock.calls[0]?.[0]).toMatchObject({ departmentId: 'd2', goalId: 'g1' });
  });
});

describe('toMinorUnits', () => {
  it('turns an amount in major units into integer minor units without floating point', () => {
    expect(toMinorUnits('1500')).toBe(150000);
    expect(toMinorUnits('0.1')).toBe(10);
    expect(toMinorUnits('19.99')).toBe(1999);
    expect(toMinorUnits('1234567890123.45')).toBe(123456789012345);
  });
});
