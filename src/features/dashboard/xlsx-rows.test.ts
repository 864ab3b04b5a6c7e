import { describe, expect, it } from 'vitest';
import { createIntl } from 'react-intl';
import type { Cell, Row } from 'write-excel-file/browser';
import en from '../../../locales/en.json';
import ru from '../../../locales/ru.json';
import { FORMULA_TRIGGERS } from '../../domain/spreadsheet';
import { dashboardSheets, exportFileName, sheetName, type DashboardSheet } from './xlsx-rows';
import { dashboardOf } from './test-fixtures';

const context = { scopeName: '@Вся компания', unitTitle: (id: string) => (id === 'MINUTES' ? 'мин' : id) };
const inEnglish = createIntl({ locale: 'en', messages: en, timeZone: 'UTC' });
const inRussian = createIntl({ locale: 'ru', messages: ru, timeZone: 'UTC' });

function valueOf(cell: Cell | undefined): unknown {
  return cell !== null && typeof cell === 'object' && 'value' in cell ? cell.value : cell;
}

function sheetOf(sheets: DashboardSheet[], name: string): DashboardSheet {
  const found = sheets.find((sheet) => sheet.name === name);
  if (!found) throw new Error(`no sheet ${name}: ${sheets.map((sheet) => sheet.name).join(', ')}`);
  return found;
}

function rowStarting(sheet: DashboardSheet, first: string): Row {
  const row = sheet.data.find((candidate) => valueOf(candidate[0]) === first);
  if (!row) throw new Error(`no row ${first} in ${sheet.name}`);
  return row;
}

describe('the dashboard workbook', () => {
  it('has a sheet per section, in the order of the screen, in the user\u2019s language', () => {
    expect(dashboardSheets(inEnglish, dashboardOf(), context).map((sheet) => sheet.name)).toEqual([
      'Money',
      'Economic effect by month',
      'Goals',
      'Projects',
      'Proposals',
      'From proposal to result',
      'Staff involvement',
      'Indicator reports',
    ]);
    expect(dashboardSheets(inRussian, dashboardOf(), context).map((sheet) => sheet.name)).toContain('Вовлечённость сотрудников');
  });

  it('writes money as numbers of major units in a money format, one row per currency, ratios as percents', () => {
    const money = sheetOf(dashboardSheets(inEnglish, dashboardOf(), context), 'Money');
    const rub = rowStarting(money, 'RUB');
    expect(rub.map(valueOf)).toEqual([
      'RUB',
      1_250_000.5,
      300_000,
      500_000,
      2.5,
      10_000_000,
      0.125,
      125_000.05,
      40_000,
    ]);
    expect(rub[1]).toMatchObject({ type: Number, format: '#,##0.00' });
    expect(rub[4]).toMatchObject({ type: Number, format: '0.0%' });
    const usd = rowStarting(money, 'USD');
    expect(usd[4]).toBeNull();
    expect(usd[5]).toBeNull();
    expect(usd[6]).toBeNull();
  });

  it('neutralises every text cell that would start a formula: labels, directions, department and scope names', () => {
    const sheets = dashboardSheets(inEnglish, dashboardOf(), context);
    const texts = sheets
      .flatMap((sheet) => sheet.data.flat())
      .map(valueOf)
      .filter((value): value is string => typeof value === 'string');
    expect(texts.length).toBeGreaterThan(40);
    for (const text of texts) expect(FORMULA_TRIGGERS.some((trigger) => text.startsWith(trigger)), text).toBe(false);
    expect(rowStarting(sheetOf(sheets, 'Goals'), "'=Снижение простоев").map(valueOf)).toEqual(["'=Снижение простоев", 'Approved', 120, 'мин', 30, 0.25]);
    expect(rowStarting(sheetOf(sheets, 'Staff involvement'), "'+Производство").map(valueOf)).toEqual(["'+Производство", 30, 15, 0.5]);
    expect(rowStarting(sheetOf(sheets, 'Money'), 'Scope').map(valueOf)).toEqual(['Scope', "'@Вся компания"]);
  });

  it('counts states, the funnel, proposals and reports as numbers', () => {
    const sheets = dashboardSheets(inEnglish, dashboardOf(), context);
    expect(sheetOf(sheets, 'Projects').data.slice(1).map((row) => row.map(valueOf))).toEqual([
      ['New', 1],
      ['Being calculated', 1],
      ['Calculated', 0],
      ['Approved', 2],
      ['For revision', 0],
      ['Completed', 1],
    ]);
    expect(sheetOf(sheets, 'From proposal to result').data.slice(1).map((row) => row.map(valueOf))).toEqual([
      ['Proposals submitted', 40],
      ['Made into projects', 8],
      ['Projects approved', 3],
      ['Projects completed', 1],
    ]);
    expect(rowStarting(sheetOf(sheets, 'Proposals'), 'Median time to a decision, hours').map(valueOf)).toEqual(['Median time to a decision, hours', 60]);
    expect(sheetOf(sheets, 'Indicator reports').data.map((row) => row.map(valueOf))).toEqual([
      ['Indicator reports due', 4],
      ['Indicator reports late', 2],
    ]);
    const none = dashboardSheets(inEnglish, dashboardOf({ proposals: { submitted: 0, approved: 0, rejected: 0, overdue: 0, medianDecisionHours: null } }), context);
    expect(rowStarting(sheetOf(none, 'Proposals'), 'Median time to a decision, hours')[1]).toBeNull();
  });

  it('names sheets and the file as Excel allows', () => {
    expect(sheetName('Effect: [expected] / actual?')).toBe('Effect   expected    actual');
    expect(sheetName('x'.repeat(40))).toHaveLength(31);
    expect(exportFileName(dashboardOf())).toBe('dashboard-2026-01-01-2026-12-31.xlsx');
  });
});
