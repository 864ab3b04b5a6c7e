// Showcase of the date picker: a single date with Select and Close, a range with presets, and a date
// with its time; each shows its committed model value for the browser test to read.
import { endOfMonth, endOfWeek, format, startOfMonth, startOfWeek, subDays } from 'date-fns';
import { useState } from 'react';
import { useIntl } from 'react-intl';
import { DatePicker, type DateRangePreset, type DateRangeValue } from '../../../../src/ui/date-picker/date-picker';

const model = (date: Date) => format(date, 'yyyy-MM-dd');

function presetsFor(isEnglish: boolean): DateRangePreset[] {
  const today = new Date();
  return [
    {
      id: 'week',
      title: isEnglish ? 'This week' : 'Эта неделя',
      range: [model(startOfWeek(today, { weekStartsOn: 1 })), model(endOfWeek(today, { weekStartsOn: 1 }))],
    },
    { id: 'month', title: isEnglish ? 'This month' : 'Этот месяц', range: [model(startOfMonth(today)), model(endOfMonth(today))] },
    { id: 'last30', title: isEnglish ? 'Last 30 days' : 'Последние 30 дней', range: [model(subDays(today, 29)), model(today)] },
    { id: 'custom', title: isEnglish ? 'Custom period' : 'Свой период', range: 'custom' },
  ];
}

export default function DatePickerSection() {
  const intl = useIntl();
  const isEnglish = intl.locale.startsWith('en');
  const [date, setDate] = useState<string | null>(null);
  const [period, setPeriod] = useState<DateRangeValue | null>(null);
  const [moment, setMoment] = useState<string | null>('2024-03-15 09:30:00');

  return (
    <section data-kit="date-picker">
      <h2>{isEnglish ? 'Date picker' : 'Выбор даты'}</h2>
      <div style={{ display: 'grid', gap: '0.5rem 1.5rem', gridTemplateColumns: 'repeat(auto-fit, minmax(16rem, 1fr))' }}>
        <div>
          <DatePicker
            label={isEnglish ? 'Due date' : 'Срок'}
            name="due"
            value={date}
            onChange={setDate}
            tip={isEnglish ? 'Select to confirm, Close to drop the choice' : 'Выбрать подтверждает, Закрыть отменяет'}
          />
          <output data-kit-value="date-picker-single">{date ?? '—'}</output>
        </div>
        <div>
          <DatePicker
            range
            label={isEnglish ? 'Report period' : 'Период отчёта'}
            name="period"
            value={period}
            onChange={setPeriod}
            presets={presetsFor(isEnglish)}
            maxRange={92}
          />
          <output data-kit-value="date-picker-range">{period ? period.join(' / ') : '—'}</output>
        </div>
        <div>
          <DatePicker
            label={isEnglish ? 'Meeting' : 'Встреча'}
            name="meeting"
            value={moment}
            onChange={setMoment}
            enableTime
            clearable
            autoApply
            position="left"
            minDate="2024-01-01"
          />
          <output data-kit-value="date-picker-time">{moment ?? '—'}</output>
        </div>
      </div>
    </section>
  );
}
