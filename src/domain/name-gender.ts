// The grammatical gender of a person from a Russian full name, for messages whose Russian words agree with it
// ("Сидорова Анна добавлена"). Employees have no gender field, so it is read from the name the way a Russian
// reader would: the patronymic first (-вич / -вна, and the Turkic «оглы» / «кызы»), else the surname's ending
// (-ова / -ина / -ая are a woman's, -ов / -ин / -ий a man's). Anything else (a foreign name, a surname such as
// «Черных» or «Шевченко» that is the same for both) is `unknown`, and the message words itself without a
// gendered verb. Pure: no I/O.

export type NameGender = 'female' | 'male' | 'unknown';

/** The Turkic patronymic's last word: «Гусейн оглы», «Айгюль кызы» (also written with a hyphen). */
const MALE_TURKIC = new Set(['оглы', 'огли', 'улы', 'уулу']);
const FEMALE_TURKIC = new Set(['кызы', 'гызы', 'кизи']);

/** «Иванович», «Ильич», «Кузьмич». */
const MALE_PATRONYMIC = /[а-я]{2}ич$/;
/** «Ивановна», «Ильинична», «Саввична». */
const FEMALE_PATRONYMIC = /[а-я]{2}(?:вна|чна)$/;

/** «Иванова», «Фёдорова», «Кузьмина», «Лукиных» is not here (the same for both), «Толстая», «Вронская». */
const FEMALE_SURNAME = /[а-я]{2}(?:ова|ева|ина|ына|ая|яя)$/;
/** «Иванов», «Фёдоров», «Кузьмин», «Толстой», «Вронский», «Белый». */
const MALE_SURNAME = /[а-я]{2}(?:ов|ев|ин|ын|ий|ый|ой)$/;

/** Lower case, «ё» read as «е», so «Фёдоров» and «Федоров» are alike. */
function normalize(word: string): string {
  return word.toLowerCase().replaceAll('ё', 'е');
}

function words(text: string): string[] {
  return normalize(text)
    .split(/[\s-]+/)
    .filter((word) => word !== '');
}

function patronymicGender(middleName: string): NameGender {
  const parts = words(middleName);
  const last = parts[parts.length - 1];
  if (last === undefined) return 'unknown';
  if (MALE_TURKIC.has(last)) return 'male';
  if (FEMALE_TURKIC.has(last)) return 'female';
  if (MALE_PATRONYMIC.test(last)) return 'male';
  if (FEMALE_PATRONYMIC.test(last)) return 'female';
  return 'unknown';
}

function surnameGender(lastName: string): NameGender {
  // A double surname agrees in its last part: «Петрова-Водкина», «Римский-Корсаков».
  const last = words(lastName).at(-1);
  if (last === undefined) return 'unknown';
  if (FEMALE_SURNAME.test(last)) return 'female';
  if (MALE_SURNAME.test(last)) return 'male';
  return 'unknown';
}

/** The gender a Russian name shows: the patronymic decides when it tells, else the surname. */
export function genderOfName(name: { lastName: string; middleName?: string | null }): NameGender {
  const byPatronymic = name.middleName ? patronymicGender(name.middleName) : 'unknown';
  return byPatronymic !== 'unknown' ? byPatronymic : surnameGender(name.lastName);
}

/**
 * The same for a full name written "Surname Name [Patronymic]" (as the employee calls answer `fullName`):
 * the first word is the surname, the words after the second the patronymic («Алиев Рашид Гусейн оглы»).
 */
export function genderOfFullName(fullName: string): NameGender {
  const parts = fullName.trim().split(/\s+/);
  const [lastName = '', , ...rest] = parts;
  return genderOfName({ lastName, middleName: rest.join(' ') });
}
