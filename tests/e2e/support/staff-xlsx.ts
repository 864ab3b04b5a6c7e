// A staff list as HR keeps it in Excel, made for the import tests with write-excel-file: Russian headers on
// row 1, one employee per row, each with a service number and an e-mail unique to this file (so none
// matches a demo employee), spread over demo departments and one department the demo company lacks. Some
// rows are broken on purpose; the generator says which rows and why, as the import report numbers them
// (the header is row 1, the first employee row 2).
import writeXlsxFile from 'write-excel-file/node';

export const STAFF_HEADERS = ['Фамилия', 'Имя', 'Отчество', 'Должность', 'Электронная почта', 'Табельный номер', 'Подразделение'] as const;

/** The import field each header above is detected as, in column order. */
export const STAFF_FIELDS = ['lastName', 'firstName', 'middleName', 'position', 'email', 'serviceNumber', 'department'] as const;

export type StaffDefect = 'noFirstName' | 'noLastName' | 'badEmail';

export interface StaffFile {
  buffer: Buffer;
  /** Data rows (the header not counted). */
  rows: number;
  /** Rows the import must reject: their number in the sheet, the expected error code and field. */
  rejected: { row: number; code: string; field: string }[];
  /** The service number every generated employee carries a prefix of, to find them afterwards. */
  serviceNumberPrefix: string;
}

const LAST_NAMES = ['Смирнов', 'Кузнецов', 'Попов', 'Васильев', 'Петров', 'Соколов', 'Михайлов', 'Новиков', 'Фёдоров', 'Морозов'];
const FIRST_NAMES = ['Алексей', 'Дмитрий', 'Сергей', 'Андрей', 'Михаил', 'Никита', 'Иван', 'Павел', 'Егор', 'Артём', 'Роман'];
const MIDDLE_NAMES = ['Алексеевич', 'Дмитриевич', 'Сергеевич', 'Андреевич', 'Михайлович', 'Иванович', 'Павлович'];
const POSITIONS = ['Оператор станков с ЧПУ', 'Слесарь-ремонтник', 'Кладовщик', 'Контролёр ОТК', 'Водитель погрузчика', 'Наладчик'];
const DEPARTMENTS = ['Производство', 'Логистика', 'Качество', 'Склад готовой продукции'];

const FIELD_OF_DEFECT: Record<StaffDefect, { code: string; field: string }> = {
  noFirstName: { code: 'required', field: 'firstName' },
  noLastName: { code: 'required', field: 'lastName' },
  badEmail: { code: 'email', field: 'email' },
};

/**
 * `count` employees; `defects` maps a data row index (0 = the first employee) to what is wrong with it.
 * The service numbers start with `prefix`.
 */
export async function buildStaffXlsx(count: number, defects: ReadonlyMap<number, StaffDefect>, prefix = 'ИМП-'): Promise<StaffFile> {
  const data: string[][] = [];
  const rejected: StaffFile['rejected'] = [];
  for (let i = 0; i < count; i += 1) {
    const number = String(i + 1).padStart(4, '0');
    const defect = defects.get(i);
    const lastName = LAST_NAMES[i % LAST_NAMES.length] ?? 'Смирнов';
    const firstName = FIRST_NAMES[(i * 7) % FIRST_NAMES.length] ?? 'Иван';
    data.push([
      defect === 'noLastName' ? '' : lastName,
      defect === 'noFirstName' ? '' : firstName,
      MIDDLE_NAMES[(i * 3) % MIDDLE_NAMES.length] ?? '',
      POSITIONS[i % POSITIONS.length] ?? '',
      defect === 'badEmail' ? `worker${number}(at)zavod` : `worker${number}@import.demo.local`,
      `${prefix}${number}`,
      DEPARTMENTS[i % DEPARTMENTS.length] ?? '',
    ]);
    if (defect) rejected.push({ row: i + 2, ...FIELD_OF_DEFECT[defect] });
  }
  const sheet = [[...STAFF_HEADERS].map((value) => ({ value, fontWeight: 'bold' as const })), ...data.map((row) => row.map((value) => (value === '' ? null : value)))];
  const buffer = await writeXlsxFile(sheet).toBuffer();
  return { buffer, rows: count, rejected, serviceNumberPrefix: prefix };
}
