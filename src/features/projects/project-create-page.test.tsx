import 'fake-indexeddb/auto';
import { cleanup, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route } from 'wouter';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Suggestion } from '../../domain/suggestion';
import { clearAppDatabase, renderPage, testUser } from '../../../tests/fixtures/render-page';
import { employeeRow } from '../../../tests/fixtures/rows';
import { getAppDatabase } from '../../lib/db/database';
import { listOutbox } from '../../lib/outbox/outbox';
import ProjectCreatePage from './pages/project-create-page';

const ME = 'head-1';
const COMPANY = 'c1';
const AT = '2026-11-20T08:00:00.000Z';

const user = testUser(ME, 'Петров Пётр', ['MIDDLE_MANAGER'], { companyId: COMPANY, firstName: 'Пётр', lastName: 'Петров', email: 'head@example.ru', username: 'head@example.ru' });

const approved: Suggestion = {
  id: 's1',
  companyId: COMPANY,
  title: 'Shorter changeover',
  problem: 'Changeover takes 40 minutes',
  solution: 'Pre-stage the dies',
  expectedEffect: 'Half an hour a shift',
  effectEstimate: null,
  departmentId: 'd1',
  goalId: null,
  images: [
    { imageId: 'i1', imageLink: '/uploads/i1', name: 'a.jpg' },
    { imageId: 'i2', imageLink: '/uploads/i2', name: 'b.jpg' },
  ],
  authorId: 'author-1',
  authorName: 'Сидоров Сидор',
  status: 'APPROVED',
  dueAt: AT,
  submittedAt: AT,
  receivedAt: AT,
  reviewComment: null,
  history: [],
  createdAt: AT,
  updatedAt: AT,
};

beforeEach(clearAppDatabase);
afterEach(cleanup);

function renderAt(search: string) {
  const path = `/companies/${COMPANY}/projects/create`;
  return renderPage(search ? `${path}?${search}` : path, <Route path="/companies/:companyId/projects/create" component={ProjectCreatePage} />, { user });
}

describe('the project form reached by "Make a project"', () => {
  it('shows the approved proposal it is made from: title, author, photos', async () => {
    await getAppDatabase().suggestions.put({ ...approved, ownerUserId: ME });
    renderAt('fromSuggestion=s1');
    expect((await screen.findByRole('link', { name: 'Shorter changeover' })).getAttribute('href')).toBe(`/companies/${COMPANY}/suggestions/s1`);
    expect(screen.getByText('Author: Сидоров Сидор. 2 photos.')).toBeTruthy();
    expect(screen.queryByText(/not approved/)).toBeNull();
  });

  it('says when the proposal is not on the device, and shows the plain page without one', async () => {
    renderAt('fromSuggestion=s1');
    expect(await screen.findByText('The proposal this project is to be made from is not on this device.')).toBeTruthy();
    cleanup();
    renderAt('');
    expect(screen.getByText('New project')).toBeTruthy();
    expect(screen.queryByText('Made from the proposal')).toBeNull();
  });

  it('makes the project from an approved proposal: its title and problem filled, its photos carried, stored with its outbox row', async () => {
    const db = getAppDatabase();
    const proposalId = '55555555-5555-4555-8555-555555555555';
    const myEmployee = '11111111-1111-4111-8111-111111111111';
    await db.suggestions.put({ ...approved, id: proposalId, ownerUserId: ME });
    await db.departments.put({ id: 'd1', companyId: COMPANY, name: 'Литейный цех', headUserId: ME, createdAt: AT, updatedAt: AT, ownerUserId: ME });
    await db.employees.put({ ...employeeRow(myEmployee, { companyId: COMPANY, userId: ME, lastName: 'Петров', firstName: 'Пётр' }), ownerUserId: ME });
    const location = renderAt(`fromSuggestion=${proposalId}`);
    const name = await screen.findByLabelText(/^Project name/);
    expect(name).toHaveProperty('value', 'Shorter changeover');
    expect(screen.getByLabelText(/^Problem description/)).toHaveProperty('value', 'Changeover takes 40 minutes');
    expect(screen.getByText(/2 photos come with the proposal/)).toBeTruthy();

    const actor = userEvent.setup();
    await actor.type(screen.getByLabelText(/^Share of the profit/), '7,25');
    await actor.type(screen.getByLabelText(/^Completion date/), '31.03.2027{Enter}');
    await actor.click(screen.getByRole('button', { name: 'Create the project' }));

    await waitFor(() => expect(location.history.at(-1)).toMatch(/^\/companies\/c1\/projects\/create-success\?id=/));
    const [row] = await listOutbox(db, ME);
    expect(row).toMatchObject({ kind: 'project.create', method: 'POST', path: `/api/v1/companies/${COMPANY}/projects` });
    expect(row?.body).toMatchObject({ suggestionId: proposalId, name: 'Shorter changeover', profitBasisPoints: 725, projectManagerEmployeeId: myEmployee, payments: [] });
    const id = row?.entityKey.slice('projects:'.length) ?? '';
    expect(await db.projects.get([ME, id])).toMatchObject({ status: 'NEW', suggestionId: proposalId, authorName: 'Сидоров Сидор', images: approved.images, remunerationMinor: null });
  });
});
