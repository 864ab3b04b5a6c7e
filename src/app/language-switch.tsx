import { useIntl } from 'react-intl';
import { useLocale } from '../lib/intl';
import type { AppLocale } from '../lib/locale-store';
import './language-switch.css';

/**
 * RU / EN buttons; the active language is pressed. `tone` suits a dark header or a light page. Each button's
 * name starts with the code it shows ("RU — Русский"): a name that leaves out the visible text fails WCAG
 * 2.5.3 (label in name), and someone using voice control says what they see.
 */
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
      {options.map((option) => {
        const label = intl.formatMessage({ id: 'nav.language.option', defaultMessage: '{code} — {language}' }, { code: option.short, language: option.name });
        return (
          <button
            key={option.locale}
            type="button"
            className="language-switch__button"
            data-locale={option.locale}
            aria-pressed={locale === option.locale}
            aria-label={label}
            // The same words as the name: a tooltip for the code, and no second reading of it as a description.
            title={label}
            onClick={() => setLocale(option.locale)}
          >
            {option.short}
          </button>
        );
      })}
    </div>
  );
}
