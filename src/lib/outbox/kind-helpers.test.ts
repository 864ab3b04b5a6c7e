import { describe, expect, it } from 'vitest';
import { LABEL_TEXT_MAX, fieldOf, labelTextOf, rowCompanyOf, rowEntityOf, stringFieldOf } from './kind-helpers';

const COLLECTION = /^\/api\/v1\/companies\/([^/]+)\/goals(?:\/([^/]+)(?:\/actions)?)?$/;
const ITEM = /^\/api\/v1\/companies\/([^/]+)\/projects\/([^/]+)(?:\/transitions)?$/;

describe('what an outbox kind reads of a row', () => {
  it('reads the company and the entity from the path, decoded', () => {
    expect(rowEntityOf({ path: '/api/v1/companies/c%201/projects/p1/transitions', entityKey: 'projects:p1' }, ITEM, 'projects')).toEqual({ companyId: 'c 1', entityId: 'p1' });
    expect(rowEntityOf({ path: '/api/v1/companies/c1/goals/g%2F2/actions', entityKey: 'goals:x' }, COLLECTION, 'goals')).toEqual({ companyId: 'c1', entityId: 'g/2' });
  });

  it('takes the entity from the entity key when the path names only the collection (a creation)', () => {
    expect(rowEntityOf({ path: '/api/v1/companies/c1/goals', entityKey: 'goals:g1' }, COLLECTION, 'goals')).toEqual({ companyId: 'c1', entityId: 'g1' });
    expect(rowEntityOf({ path: '/api/v1/companies/c1/goals', entityKey: 'projects:g1' }, COLLECTION, 'goals')).toBeNull();
    expect(rowEntityOf({ path: '/api/v1/companies/c1/goals', entityKey: 'goals:' }, COLLECTION, 'goals')).toBeNull();
  });

  it('reads null from a path this app never writes', () => {
    expect(rowEntityOf({ path: '/api/v1/companies/c1/other/p1', entityKey: 'projects:p1' }, ITEM, 'projects')).toBeNull();
    expect(rowEntityOf({ path: '/api/v1/companies/%E0%A4%A/projects/p1', entityKey: 'projects:p1' }, ITEM, 'projects')).toBeNull();
    expect(rowCompanyOf({ path: '/api/v1/companies/%/suggestions' }, /^\/api\/v1\/companies\/([^/]+)\/suggestions$/)).toBeNull();
    expect(rowCompanyOf({ path: '/api/v1/companies/c%3F/suggestions' }, /^\/api\/v1\/companies\/([^/]+)\/suggestions$/)).toBe('c?');
  });

  it('reads string fields of an untrusted body, and nothing else', () => {
    expect(stringFieldOf({ title: 'Lamp' }, 'title')).toBe('Lamp');
    expect(stringFieldOf({ title: 5 }, 'title')).toBe('');
    expect(stringFieldOf(null, 'title')).toBe('');
    expect(stringFieldOf('text', 'length')).toBe('');
    expect(fieldOf({ value: 12.5 }, 'value')).toBe(12.5);
    expect(fieldOf(undefined, 'value')).toBeUndefined();
  });

  it('puts a long comment on one line, cut with an ellipsis', () => {
    expect(labelTextOf('  two\n  lines ')).toBe('two lines');
    const long = labelTextOf('a'.repeat(LABEL_TEXT_MAX + 10));
    expect(long).toHaveLength(LABEL_TEXT_MAX);
    expect(long.endsWith('…')).toBe(true);
    expect(labelTextOf('b'.repeat(LABEL_TEXT_MAX))).toBe('b'.repeat(LABEL_TEXT_MAX));
  });
});
