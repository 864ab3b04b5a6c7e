import { describe, expect, it } from 'vitest';
import { paths, safeNextPath, withNextPath } from '../../domain/paths';

describe('the page to return to after sign-in (safeNextPath)', () => {
  it.each([
    ['/companies/c1/projects/p1', '/companies/c1/projects/p1'],
    ['/companies/c1/suggestions?tab=review', '/companies/c1/suggestions?tab=review'],
    ['/dashboard?from=2025-01-01#figures', '/dashboard?from=2025-01-01#figures'],
    ['/profile', '/profile'],
    // Dot segments are resolved before anything is judged, as the browser would resolve them.
    ['/companies/c1/./projects/../goals', '/companies/c1/goals'],
    // An encoded slash inside a segment stays one segment of this app's path.
    ['/companies/c%2F1/goals', '/companies/c%2F1/goals'],
    // The router gives paths decoded: a space comes back encoded.
    ['/companies/c1/goals?q=a b', '/companies/c1/goals?q=a%20b'],
  ])('keeps the app path %s', (value, expected) => {
    expect(safeNextPath(value)).toBe(expected);
  });

  it.each([
    // Other sites: protocol-relative, with a scheme, and the spellings browsers read as "//".
    '//evil.com',
    '//evil.com/companies/c1',
    '///evil.com',
    '/\\evil.com',
    '\\\\evil.com',
    '/\t/evil.com',
    '/\n/evil.com',
    '/\r/evil.com',
    '/\u0000/evil.com',
    ' /companies/c1',
    'https://evil.com/companies/c1',
    'http:/evil.com',
    'javascript:alert(1)',
    'JavaScript:alert(document.cookie)',
    'data:text/html,<script>alert(1)</script>',
    'evil.com',
    'companies/c1',
    // Encoded variants, as they arrive once the query has been decoded.
    '%2F%2Fevil.com',
    '/%2F/evil.com',
    '/%2F%2Fevil.com',
    '/%5Cevil.com',
    '%2Fcompanies%2Fc1',
    'javascript%3Aalert(1)',
    // The sign-in pages themselves (a loop) and the API are no page to return to.
    '/auth/login',
    '/auth/login?next=/dashboard',
    '/auth',
    '/AUTH/register',
    '/%61uth/login',
    '/auth%2Flogin',
    '/companies/../auth/login',
    '/%2e%2e/auth/recovery-password',
    '/main-service/api/v1/user',
    // Nothing, or more than any path of the app.
    '',
    `/${'a'.repeat(3000)}`,
  ])('refuses %j', (value) => {
    expect(safeNextPath(value)).toBeNull();
  });

  it('refuses a missing value and broken percent-encoding', () => {
    expect(safeNextPath(null)).toBeNull();
    expect(safeNextPath(undefined)).toBeNull();
    expect(safeNextPath('/companies/%E0%A4%A/goals')).toBeNull();
  });
});

describe('an auth page asking to return (withNextPath)', () => {
  it('carries a safe path in ?next=, readable and read back exactly', () => {
    // As the address bar gives it: already percent-encoded.
    const target = '/companies/c1/projects/p1?tab=team&x=a%20b';
    const link = withNextPath(paths.auth.login, target);
    expect(link.startsWith('/auth/login?next=/companies/c1/projects/p1')).toBe(true);
    const carried = new URL(link, 'https://app.example').searchParams.get('next');
    expect(carried).toBe(target);
    expect(safeNextPath(carried)).toBe(target);
  });

  it('leaves the page alone for a hostile value or where sign-in lands anyway', () => {
    for (const next of ['//evil.com', 'https://evil.com', '/auth/login', 'javascript:alert(1)', paths.dashboard, paths.root, null]) {
      expect(withNextPath(paths.auth.register, next)).toBe(paths.auth.register);
    }
  });
});
