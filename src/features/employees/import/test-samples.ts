// Sample answers of the import API (docs/api.md, "Import") for the unit tests of the import screens.
import type { ImportPreview, ImportReport } from '../../../domain/company';

export const samplePreview: ImportPreview = {
  fileName: 'staff.xlsx',
  totalRows: 3,
  columns: [
    { index: 0, header: 'Фамилия', field: 'lastName' },
    { index: 1, header: 'Имя', field: 'firstName' },
    { index: 2, header: 'Табельный №', field: 'serviceNumber' },
    { index: 3, header: 'Комментарий', field: null },
  ],
  sample: [
    ['Иванов', 'Иван', 'Т-1', 'новый'],
    ['Петрова', 'Анна', 'Т-2', ''],
    ['Сидоров', '', 'Т-3', ''],
  ],
  missingFields: [],
};

export const sampleReport: ImportReport = {
  id: 'imp-1',
  companyId: 'c1',
  fileName: 'staff.xlsx',
  createdAt: '2026-03-02T09:30:00.000Z',
  result: 'withErrors',
  totalRows: 5,
  created: 2,
  updated: 1,
  unchanged: 0,
  rejected: [
    { row: 6, code: 'invalidEmail', message: 'The e-mail address is not valid', field: 'email', values: ['Смирнов', 'Олег', 'oleg@', ''] },
    { row: 4, code: 'required', message: 'First name is required', field: 'firstName', values: ['Сидоров', '', 'Т-3', ''] },
  ],
  imported: [
    { row: 2, employeeId: 'e1', fullName: 'Иванов Иван', action: 'created' },
    { row: 3, employeeId: 'e2', fullName: 'Петрова Анна', action: 'created' },
    { row: 5, employeeId: 'e3', fullName: 'Кузнецов Пётр', action: 'updated' },
  ],
};
