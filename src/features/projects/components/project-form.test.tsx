import { cleanup, render, screen, waitFor } from '@testing-library/react';
import { IntlProvider } from 'react-intl';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import en from '../../../../locales/en.json';
import { DialogProvider } from '../../../ui/dialog';
import type { ProjectDraft, ProjectPhotoInput } from '../store';
import { ProjectForm, metricValueOf } from './project-form';
import { startFakeClock, stopFakeClock, type FakeClockUser } from '../../../../tests/unit/support/fake-clock';

// The clock is fake: user-event's pauses between keys and Testing Library's waits move fake time instead of
// waiting on real timers, which a busy machine runs late (this file's typing used to hit the test timeout).
let user: FakeClockUser;

beforeEach(() => {
  user = startFakeClock();
});

afterEach(() => {
  cleanup();
  stopFakeClock();
});

const MANAGER = '11111111-1111-4111-8111-111111111111';
const options = {
  employees: [{ id: MANAGER, title: 'Петров Пётр', serviceNumber: '0042' }],
  goals: [{ id: '44444444-4444-4444-8444-444444444444', title: 'Производство — Переналадка' }],
  units: [{ id: 'MINUTES', title: 'Minutes' }],
};

function renderForm(onSubmit: (draft: ProjectDraft, photos: ProjectPhotoInput[]) => Promise<void>) {
  render(
    <IntlProvider locale="en" messages={en}>
      <DialogProvider>
        <ProjectForm options={options} defaultManagerEmployeeId={MANAGER} locale="en" onSubmit={onSubmit} />
      </DialogProvider>
    </IntlProvider>,
  );
}

/** The error shown beside a field: the element its aria-describedby points at. */
function errorBeside(field: HTMLElement): string | null {
  if (field.getAttribute('aria-invalid') !== 'true') return null;
  const ids = field.getAttribute('aria-describedby')?.split(' ') ?? [];
  return ids.map((id) => document.getElementById(id)?.textContent ?? '').join(' ') || null;
}

describe('the project form', () => {
  it('says what is wrong with a typed percentage and amount, in the user’s words', async () => {
    const onSubmit = vi.fn(() => Promise.resolve());
    renderForm(onSubmit);
    const percent = screen.getByLabelText(/^Share of the profit/);
    const max = screen.getByLabelText(/^Maximum per project/);

    await user.type(percent, '12,555');
    await user.tab();
    await waitFor(() => expect(errorBeside(percent)).toContain('at most two decimals'));
    await user.clear(percent);
    await user.type(percent, '100,5');
    await user.tab();
    await waitFor(() => expect(errorBeside(percent)).toContain('from 0 to 100'));
    await user.clear(percent);
    await user.type(percent, 'twelve');
    await user.tab();
    await waitFor(() => expect(errorBeside(percent)).toContain('is not valid'));

    await user.type(max, '1000,001');
    await user.tab();
    await waitFor(() => expect(errorBeside(max)).toContain('at most two decimals'));
    await user.clear(max);
    await user.type(max, '999999999999999999');
    await user.tab();
    await waitFor(() => expect(errorBeside(max)).toContain('too large'));

    await user.click(screen.getByRole('button', { name: 'Create the project' }));
    await waitFor(() => expect(errorBeside(screen.getByLabelText(/^Project name/))).toBeTruthy());
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it('asks for a unit with a metric’s value', async () => {
    renderForm(() => Promise.resolve());
    const baseline = screen.getByLabelText(/^Baseline metric/);
    await user.type(baseline, '40');
    await user.click(screen.getByRole('button', { name: 'Create the project' }));
    await waitFor(() => expect(document.querySelector('[data-field="baselineUnitId"], [name="baselineUnitId"]')).toBeTruthy());
    await waitFor(() => expect(screen.getAllByText('Fill in this field.').length).toBeGreaterThan(0));
  });

  it('hands over exact minor units and basis points, never floats', async () => {
    const onSubmit = vi.fn((draft: ProjectDraft, photos: ProjectPhotoInput[]) => {
      void draft;
      void photos;
      return Promise.resolve();
    });
    renderForm(onSubmit);
    await user.type(screen.getByLabelText(/^Project name/), 'Быстрая переналадка');
    await user.type(screen.getByLabelText(/^Problem description/), 'Переналадка занимает 40 минут');
    await user.type(screen.getByLabelText(/^Share of the profit/), '12,5');
    await user.type(screen.getByLabelText(/^Maximum per project/), '1 000,50');
    await user.type(screen.getByLabelText(/^Completion date/), '31.03.2027{Enter}');
    await user.click(screen.getByRole('button', { name: 'Create the project' }));
    await waitFor(() => expect(onSubmit).toHaveBeenCalledTimes(1));
    expect(onSubmit.mock.calls[0]?.[0]).toMatchObject({
      name: 'Быстрая переналадка',
      profitBasisPoints: 1250,
      maxPerProjectMinor: 100_050,
      completionDate: '2027-03-31',
      projectManagerEmployeeId: MANAGER,
      currency: 'RUB',
      team: [],
      goalIds: [],
      baselineMetric: null,
    });
  });

  it('reads a metric typed with a comma or a point', () => {
    expect(metricValueOf('12,5')).toBe(12.5);
    expect(metricValueOf(' 40 ')).toBe(40);
    expect(metricValueOf('-1')).toBeNull();
    expect(metricValueOf('1e3')).toBeNull();
  });
});
