// Showcase of the select: autocomplete (single, with groups), multiple with chips, a select-only choice
// that falls back to its first option, options with pictures and icons, and the invalid, disabled,
// loading and empty states. Labels and options are fixed test copy (Russian city names, so that typing
// 'мос' finds 'Москва'); the select's own texts ('Нет данных', 'Ничего не найдено', 'Loading...') follow
// the page language. Each field prints its model value for the browser test.
import { useState } from 'react';
import { Select, type MultipleSelectProps, type SelectOption, type SingleSelectProps } from '../../../../src/ui/select';

const CITIES: SelectOption[] = [
  {
    id: 'ru',
    title: 'Россия',
    group: true,
    items: [
      { id: 'msk', title: 'Москва' },
      { id: 'spb', title: 'Санкт-Петербург' },
      { id: 'kzn', title: 'Казань' },
      { id: 'krd', title: 'Краснодар' },
      { id: 'nsk', title: 'Новосибирск' },
      { id: 'ekb', title: 'Екатеринбург' },
    ],
  },
  {
    id: 'by',
    title: 'Беларусь',
    group: true,
    items: [
      { id: 'msq', title: 'Минск' },
      { id: 'gme', title: 'Гомель' },
    ],
  },
  { id: 'remote', title: 'Удалённо' },
];

const DEPARTMENTS: SelectOption[] = [
  { id: 'assembly', title: 'Сборочный цех' },
  { id: 'paint', title: 'Малярный участок' },
  { id: 'stamping', title: 'Штамповка' },
  { id: 'quality', title: 'Отдел качества' },
  { id: 'logistics', title: 'Логистика' },
];

const UNITS: SelectOption[] = [
  { id: 'MINUTES', title: 'Минуты' },
  { id: 'HOURS', title: 'Часы' },
  { id: 'DAYS', title: 'Дни' },
];

function avatar(initials: string, color: string): string {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="56" height="56"><rect width="56" height="56" fill="${color}"/><text x="28" y="36" font-family="sans-serif" font-size="22" fill="#fff" text-anchor="middle">${initials}</text></svg>`;
  return `data:image/svg+xml,${encodeURIComponent(svg)}`;
}

function Dot({ color }: { color: string }) {
  return (
    <svg width="12" height="12" viewBox="0 0 12 12" aria-hidden="true">
      <circle cx="6" cy="6" r="6" fill={color} />
    </svg>
  );
}

const PEOPLE: SelectOption[] = [
  { id: 'ivanov', title: 'Иванов Иван', img: avatar('ИИ', '#2563eb') },
  { id: 'petrova', title: 'Петрова Анна', img: avatar('ПА', '#16a34a') },
  { id: 'sidorov', title: 'Сидоров Олег (в отпуске)', img: avatar('СО', '#6b7280'), cls: 'kit-select--away', disabled: true },
];

const STATUSES: SelectOption[] = [
  { id: 'NEW', title: 'Новый', icon: <Dot color="#2563eb" /> },
  { id: 'APPROVED', title: 'Одобрен', icon: <Dot color="#16a34a" /> },
  { id: 'REJECTED', title: 'Отклонён', icon: <Dot color="#dc2626" /> },
];

const GRID = { display: 'grid', gridTemplateColumns: 'repeat(auto-fill, minmax(15rem, 1fr))', columnGap: '1rem' } as const;
const MODEL = { display: 'block', marginTop: '-0.75rem', marginBottom: '0.75rem', fontSize: '0.75rem', color: 'var(--color-muted, #6b7280)' } as const;

function Single(props: Omit<SingleSelectProps, 'value' | 'onChange'> & { initial?: string }) {
  const { initial = '', ...rest } = props;
  const [value, setValue] = useState(initial);
  return (
    <div>
      <Select {...rest} value={value} onChange={setValue} />
      <output style={MODEL} data-kit-value={rest.name}>
        {value}
      </output>
    </div>
  );
}

function Multiple(props: Omit<MultipleSelectProps, 'value' | 'onChange' | 'multiple'> & { initial?: string[] }) {
  const { initial = [], ...rest } = props;
  const [value, setValue] = useState<string[]>(initial);
  return (
    <div>
      <Select {...rest} multiple value={value} onChange={setValue} />
      <output style={MODEL} data-kit-value={rest.name}>
        {value.join(',')}
      </output>
    </div>
  );
}

export default function SelectSection() {
  const [required, setRequired] = useState('');
  const [touched, setTouched] = useState(false);
  return (
    <section data-kit="select">
      <h2>Select</h2>
      <div style={GRID}>
        <Single label="City (autocomplete)" name="city" options={CITIES} searchable placeholder="Начните вводить…" tip="Groups: Россия, Беларусь" />
        <Multiple label="Departments (multiple, autocomplete)" name="departments" options={DEPARTMENTS} searchable placeholder="Выберите цеха" />
        <Single label="Unit (falls back to the first)" name="unit" options={UNITS} />
        <Multiple label="Cities (multiple)" name="cities" options={CITIES} initial={['spb', 'unknown']} placeholder="Выберите" />
        <Single label="Responsible (pictures)" name="responsible" options={PEOPLE} placeholder="Выберите" />
        <Single label="Status (icons)" name="status" options={STATUSES} initial="APPROVED" />
        <div>
          <Select
            label="Required choice"
            name="required"
            options={UNITS}
            placeholder="Выберите"
            required
            value={required}
            onChange={setRequired}
            onBlur={() => setTouched(true)}
            error={touched && required === '' ? 'Fill in this field.' : undefined}
          />
          <output style={MODEL} data-kit-value="required">
            {required}
          </output>
        </div>
        <Single label="Disabled" name="disabled" options={UNITS} initial="HOURS" disabled />
        <Single label="Loading" name="loading" options={[]} loading placeholder="Выберите" />
        <Single label="No data" name="empty" options={[]} placeholder="Выберите" />
      </div>
    </section>
  );
}
