import { useIntl } from 'react-intl';
import { useLocale } from '../lib/intl';
import type { AppLocale } from '../lib/locale-store';
import './language-switch.css';

/** RU / EN buttons; the active language is pressed. `tone` suits a dark header or a light page. */
export function LanguageSwitch({ tone = 'light' }: { tone?: 'light' | 'dark' }) {
  const intl = useIntl();
  const { locale, setLocale } = useLocale();
  const options: { locale: AppLocale; short: string; name: string }[] = [
    {
      locale: 'ru',
      short: intl.formatMessage({ id: 'nav.language.ruShort', defaultMessage: 'RU' }),
      name: intl.formatMessage({ id: 'nav.language.ru', defaultMessage: 'Russian' }),
    },
    {
      locale: 'en',
      short: intl.formatMessage({ id: 'nav.language.enShort', defaultMessage: 'EN' }),
      name: intl.formatMessage({ id: 'nav.language.en', defaultMessage: 'English' }),
    },
  ];
  return (
    <div
      className={`language-switch language-switch--${tone}`}
      role="group"
      aria-label={intl.formatMessage({ id: 'nav.language', defaultMessage: 'Interface language' })}
    >
      {options.map((option) => (
        <button
          key={option.locale}
          type="button"
          className="language-switch__button"
          data-locale={option.locale}
          aria-pressed={locale === option.locale}
          aria-label={option.name}
          title={option.name}
          onClick={() => setLocale(option.locale)}
        >
          {option.short}
        </button>
      ))}
    </div>
  );
}
