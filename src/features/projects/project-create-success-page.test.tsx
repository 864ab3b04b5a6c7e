import 'fake-indexeddb/auto';
import { cleanup, screen } from '@testing-library/react';
import { Route } from 'wouter';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { clearAppDatabase, renderPage, testUser } from '../../../tests/fixtures/render-page';
import { projectRow } from '../../../tests/fixtures/rows';
import { getAppDatabase } from '../../lib/db/database';
import ProjectCreateSuccessPage from './pages/project-create-success-page';

const ME = 'head-1';
const COMPANY = 'c1';
const ID = '77777777-7777-4777-8777-777777777777';
const user = testUser(ME, 'Петров Пётр', ['MIDDLE_MANAGER'], { companyId: COMPANY });

beforeEach(clearAppDatabase);
afterEach(cleanup);

/** The page opened directly at its address, as after a reload or from a link: no state from the form. */
function openDirectly(locale: 'en' | 'ru') {
  renderPage(`/companies/${COMPANY}/projects/create-success?id=${ID}`, <Route path="/companies/:companyId/projects/create-success" component={ProjectCreateSuccessPage} />, {
    user,
    locale,
  });
}

describe('the page after creating a project, opened directly', () => {
  it('names the project the device holds', async () => {
    await getAppDatabase().projects.put({ ...projectRow(ID, { companyId: COMPANY, name: 'Быстрая переналадка' }), ownerUserId: ME });
    openDirectly('ru');
    expect((await screen.findByRole('heading', { level: 1 })).textContent).toBe('Проект создан');
    expect(screen.getByRole('status').textContent).toMatch(/^Проект «Быстрая переналадка» создан\./);
  });

  it.each([
    ['en', 'Project created', 'The project is created.'],
    ['ru', 'Проект создан', 'Проект создан.'],
  ] as const)('says the same without a name, never empty quotes, when the device does not hold the project (%s)', async (locale, title, text) => {
    openDirectly(locale);
    expect((await screen.findByRole('heading', { level: 1 })).textContent).toBe(title);
    const status = screen.getByRole('status').textContent ?? '';
    expect(status).not.toMatch(/«»|“”/);
    expect(status.slice(0, text.length)).toBe(text);
  });
});
