import { describe, expect, it } from 'vitest';
import en from '../../locales/en.json';
import ru from '../../locales/ru.json';
import { parse, TYPE, type MessageFormatElement } from '@formatjs/icu-messageformat-parser';

const catalogues: Record<string, Record<string, string>> = { en, ru };

/** The ICU arguments of a message with their kinds ('count:plural', 'name:argument', '<link>:tag'), sorted. */
function placeholders(message: string): string[] {
  const found = new Set<string>();
  const walk = (elements: MessageFormatElement[]) => {
    for (const element of elements) {
      switch (element.type) {
        case TYPE.argument:
          found.add(`${element.value}:argument`);
          break;
        case TYPE.number:
        case TYPE.date:
        case TYPE.time:
          found.add(`${element.value}:${TYPE[element.type]}`);
          break;
        case TYPE.plural:
        case TYPE.select:
          found.add(`${element.value}:${TYPE[element.type]}`);
          for (const option of Object.values(element.options)) walk(option.value);
          break;
        case TYPE.tag:
          found.add(`<${element.value}>:tag`);
          walk(element.children);
          break;
        default:
          break;
      }
    }
  };
  walk(parse(message));
  return [...found].sort();
}

describe('message catalogues', () => {
  it('hold the same ids in English and Russian', () => {
    const enIds = Object.keys(en).sort();
    const ruIds = Object.keys(ru).sort();
    expect(enIds.filter((id) => !ruIds.includes(id)), 'ids missing in ru.json').toEqual([]);
    expect(ruIds.filter((id) => !enIds.includes(id)), 'ids missing in en.json').toEqual([]);
  });

  it('use the same ICU placeholders for every id in both languages (a grammatical gender choice may be one language\'s own)', () => {
    // Russian agrees verbs and adjectives with a person's gender ({gender, select, female {добавлена} ...}); English
    // has nothing to agree, so its text may leave the `gender` argument unused. Every other placeholder must match.
    const grammatical = (list: string[]) => list.filter((entry) => entry !== 'gender:select');
    const mismatches = Object.keys(en)
      .filter((id) => id in ru)
      .map((id) => ({ id, en: grammatical(placeholders(en[id as keyof typeof en])), ru: grammatical(placeholders(ru[id as keyof typeof ru])) }))
      .filter((entry) => entry.en.join() !== entry.ru.join());
    expect(mismatches).toEqual([]);
  });

  it('have no empty messages', () => {
    for (const [lang, catalogue] of Object.entries(catalogues)) {
      const empty = Object.entries(catalogue).filter(([, text]) => text.trim() === '').map(([id]) => id);
      expect(empty, `empty messages in ${lang}.json`).toEqual([]);
    }
  });

  it('are valid ICU messages', () => {
    for (const [lang, catalogue] of Object.entries(catalogues)) {
      for (const [id, text] of Object.entries(catalogue)) {
        expect(() => parse(text), `${lang}.json ${id}`).not.toThrow();
      }
    }
  });

  it('tells placeholders apart by name and kind, ignoring branch texts (self-check)', () => {
    expect(placeholders('Hello, {name}!')).toEqual(['name:argument']);
    expect(placeholders('{count, plural, one {# file by {author}} other {# files}}')).toEqual(['author:argument', 'count:plural']);
    expect(placeholders('{count, plural, one {# файл} few {# файла} many {# файлов} other {# файла}}')).toEqual(['count:plural']);
    expect(placeholders('{kind, select, a {Apples} other {Pears}}')).toEqual(['kind:select']);
    expect(placeholders('Read <link>the terms</link> before {date, date}')).toEqual(['<link>:tag', 'date:date']);
    expect(placeholders('No arguments')).toEqual([]);
  });
});
