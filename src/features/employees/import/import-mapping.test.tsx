import { cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { IntlProvider } from 'react-intl';
import { afterEach, describe, expect, it, vi } from 'vitest';
import en from '../../../../locales/en.json';
import ru from '../../../../locales/ru.json';
import type { ImportField } from '../../../domain/company';
import { DialogProvider } from '../../../ui/dialog';
import { ImportMapping } from './components/import-mapping';
import {
  detectedMapping,
  duplicatedFields,
  fieldOfChoice,
  isMappingComplete,
  mappingFieldValue,
  missingRequiredFields,
  withColumnField,
} from './mapping';
import { samplePreview } from './test-samples';

afterEach(cleanup);

/** The mapping step as the page uses it: it holds the mapping and reports every change. */
function Mapping({ initial, onChange }: { initial?: (ImportField | null)[]; onChange?: (mapping: (ImportField | null)[]) => void }) {
  const [mapping, setMapping] = useState(initial ?? detectedMapping(samplePreview));
  return (
    <ImportMapping
      preview={samplePreview}
      mapping={mapping}
      onChange={(index, field) => {
        const next = withColumnField(mapping, index, field);
        setMapping(next);
        onChange?.(next);
      }}
    />
  );
}

function renderIn(locale: 'en' | 'ru', node: React.ReactNode) {
  return render(
    <IntlProvider locale={locale} messages={locale === 'ru' ? ru : en}>
      <DialogProvider>{node}</DialogProvider>
    </IntlProvider>,
  );
}

const hiddenValue = (container: HTMLElement, index: number) => container.querySelector<HTMLInputElement>(`input[name="column-${index}"]`)?.value;

describe('the column mapping rules', () => {
  it('start from the detected field of every column, in the file’s order', () => {
    const shuffled = { columns: [...samplePreview.columns].reverse() };
    expect(detectedMapping(shuffled)).toEqual(['lastName', 'firstName', 'serviceNumber', null]);
  });

  it('need a column for last name and first name, and at most one column per field', () => {
    expect(isMappingComplete(['lastName', 'firstName', null])).toBe(true);
    expect(missingRequiredFields(['lastName', null, 'email'])).toEqual(['firstName']);
    expect(missingRequiredFields([null, null])).toEqual(['lastName', 'firstName']);
    expect(duplicatedFields(['lastName', 'firstName', 'email', 'email'])).toEqual(['email']);
    expect(isMappingComplete(['lastName', 'firstName', 'firstName'])).toBe(false);
  });

  it('read "ignore" or anything unknown in a select as no field', () => {
    expect(fieldOfChoice('email')).toBe('email');
    expect(fieldOfChoice('ignore')).toBeNull();
    expect(fieldOfChoice('roles')).toBeNull();
  });

  it('send the mapping as a JSON array with null for ignored columns', () => {
    expect(JSON.parse(mappingFieldValue(['lastName', null, 'firstName']))).toEqual(['lastName', null, 'firstName']);
  });
});

describe('the mapping step', () => {
  it('shows each column of the file under its header with the detected field and examples', () => {
    const { container } = renderIn('en', <Mapping />);
    expect(screen.getByText('“staff.xlsx”: 3 rows of employees.', { exact: false })).toBeTruthy();
    expect(hiddenValue(container, 0)).toBe('lastName');
    expect(hiddenValue(container, 1)).toBe('firstName');
    expect(hiddenValue(container, 2)).toBe('serviceNumber');
    expect(hiddenValue(container, 3)).toBe('ignore');
    const lastName = container.querySelector<HTMLElement>('[data-column="0"]')!;
    expect(within(lastName).getByText('Фамилия')).toBeTruthy();
    expect(within(lastName).getByRole('combobox').textContent).toContain('Last name');
    expect(within(lastName).getByText('For example: Иванов, Петрова')).toBeTruthy();
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('shows the first rows with the field each column fills', () => {
    renderIn('en', <Mapping />);
    const table = screen.getByRole('table');
    const rows = within(table).getAllByRole('row');
    expect(rows).toHaveLength(4);
    expect(rows[0]!.textContent).toContain('ФамилияLast name');
    expect(rows[0]!.textContent).toContain('КомментарийDo not import');
    expect(rows[1]!.textContent).toBe('ИвановИванТ-1новый');
  });

  it('lets the user choose another field for a column, or ignore it', async () => {
    const user = userEvent.setup();
    const onChange = vi.fn();
    const { container } = renderIn('en', <Mapping onChange={onChange} />);
    const comment = container.querySelector<HTMLElement>('[data-column="3"]')!;
    await user.click(within(comment).getByRole('combobox'));
    await user.click(screen.getByRole('option', { name: 'Position' }));
    expect(onChange).toHaveBeenLastCalledWith(['lastName', 'firstName', 'serviceNumber', 'position']);
    expect(hiddenValue(container, 3)).toBe('position');

    const number = container.querySelector<HTMLElement>('[data-column="2"]')!;
    await user.click(within(number).getByRole('combobox'));
    await user.click(screen.getByRole('option', { name: 'Do not import' }));
    expect(onChange).toHaveBeenLastCalledWith(['lastName', 'firstName', null, 'position']);
  });

  it('says clearly which required fields have no column', async () => {
    const user = userEvent.setup();
    const { container } = renderIn('en', <Mapping />);
    const firstName = container.querySelector<HTMLElement>('[data-column="1"]')!;
    await user.click(within(firstName).getByRole('combobox'));
    await user.click(screen.getByRole('option', { name: 'Do not import' }));
    const alert = screen.getByRole('alert');
    expect(alert.textContent).toBe(
      'The required field First name has no column. Choose the columns that hold them above, or add them to the file and choose it again.',
    );
  });

  it('names both required fields in Russian when neither has a column', () => {
    renderIn('ru', <Mapping initial={[null, null, 'serviceNumber', null]} />);
    expect(screen.getByRole('alert').textContent).toContain('Для обязательных полей Фамилия и Имя нет столбцов.');
  });

  it('flags two columns that fill the same field', () => {
    const { container } = renderIn('en', <Mapping initial={['lastName', 'firstName', 'serviceNumber', 'firstName']} />);
    expect(container.querySelector('[data-problem="duplicated-fields"]')?.textContent).toContain('Each field can come from one column only: First name.');
    expect(within(container.querySelector<HTMLElement>('[data-column="3"]')!).getByText('Another column fills “First name” too')).toBeTruthy();
  });
});
