// The date picker's month grid: react-day-picker with its Russian and English locales and date-fns' month
// names. Loaded with the open menu (date-picker-menu.tsx) when a date picker is first focused or opened
// (date-picker.tsx, loadCalendar), not with the pages that show a date field: it is 25 KB gzipped, most of a
// form's weight, and most visits type a date or never change it (issue 14: every route within 200 KB).
import { format } from 'date-fns';
import { enUS as dateFnsEnUS, ru as dateFnsRu } from 'date-fns/locale';
import { DayPicker, type DateRange, type Matcher } from 'react-day-picker';
import { enUS } from 'react-day-picker/locale/en-US';
import { ru } from 'react-day-picker/locale/ru';
import 'react-day-picker/style.css';

export type CalendarLocale = 'ru' | 'en';

interface CalendarCommonProps {
  locale: CalendarLocale;
  month: Date;
  onMonthChange: (month: Date) => void;
  startMonth: Date;
  endMonth: Date;
  disabled: Matcher[];
  /** Always six weeks, with the neighbouring months' days. */
  sixWeeks: boolean;
}

export type CalendarProps =
  | (CalendarCommonProps & { mode: 'single'; selected: Date | undefined; onSelect: (day: Date | undefined) => void })
  | (CalendarCommonProps & { mode: 'range'; selected: DateRange | undefined; onSelect: (range: DateRange | undefined) => void; max?: number });

function capitalise(text: string, locale: string): string {
  return text.charAt(0).toLocaleUpperCase(locale) + text.slice(1);
}

export function Calendar(props: CalendarProps) {
  const { locale } = props;
  const dateFnsLocale = locale === 'en' ? dateFnsEnUS : dateFnsRu;
  const monthTitle = (date: Date) => capitalise(format(date, 'LLLL yyyy', { locale: dateFnsLocale }), locale);
  const common = {
    locale: locale === 'en' ? enUS : ru,
    lang: locale,
    weekStartsOn: 1 as const,
    fixedWeeks: props.sixWeeks,
    showOutsideDays: props.sixWeeks,
    captionLayout: 'dropdown' as const,
    startMonth: props.startMonth,
    endMonth: props.endMonth,
    month: props.month,
    onMonthChange: props.onMonthChange,
    disabled: props.disabled,
    // Today is deliberately not marked (spec section 5): no class, so no highlight.
    classNames: { today: '' },
    formatters: {
      formatCaption: monthTitle,
      formatMonthDropdown: (date: Date) => capitalise(format(date, 'LLLL', { locale: dateFnsLocale }), locale),
    },
    labels: { labelGrid: monthTitle },
  };
  return props.mode === 'range' ? (
    <DayPicker {...common} mode="range" selected={props.selected} onSelect={props.onSelect} resetOnSelect max={props.max} />
  ) : (
    <DayPicker {...common} mode="single" required selected={props.selected} onSelect={props.onSelect} />
  );
}
