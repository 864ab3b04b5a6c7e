import { describe, expect, it } from 'vitest';
import { PRIMARY_MAX, currentNavItem, navItemsFor, suggestionAccessOf, type NavFlags, type NavItems } from './nav-items';

const C = 'c1';
const inCompany = (flags: Partial<NavFlags> = {}): NavFlags => ({ companyId: C, isAdmin: false, ...flags });
const keys = (items: NavItems) => ({ primary: items.primary.map((item) => item.key), more: items.more.map((item) => item.key) });

describe('navigation by role', () => {
  it('gives an employee submitting a proposal and their own proposals first', () => {
    const { primary, more } = keys(navItemsFor(['EMPLOYEE'], inCompany()));
    expect(primary).toEqual(['submit', 'my-suggestions', 'dashboard']);
    expect(more).toEqual(['goals', 'projects', 'registry', 'employees', 'departments', 'add-company', 'profile']);
  });

  it('links "submit" to the create route and "My proposals" to the list', () => {
    const { primary } = navItemsFor(['EMPLOYEE'], inCompany());
    expect(primary.map((item) => item.href)).toEqual([`/companies/${C}/suggestions/create`, `/companies/${C}/my-suggestions`, '/dashboard']);
  });

  it('puts "To review" first for a department head, once the device has told that they head one', () => {
    expect(keys(navItemsFor(['EMPLOYEE'], inCompany({ suggestionAccess: 'decide' }))).primary).toEqual(['review', 'submit', 'my-suggestions', 'dashboard']);
    const review = navItemsFor(['EMPLOYEE'], inCompany({ suggestionAccess: 'decide' })).primary[0];
    expect(review?.href).toBe(`/companies/${C}/suggestions`);
    // Not a head (or not known yet): nobody else's proposals to open.
    expect(keys(navItemsFor(['EMPLOYEE'], inCompany({ suggestionAccess: null }))).primary).not.toContain('review');
    expect(keys(navItemsFor(['EMPLOYEE'], inCompany())).more).not.toContain('review');
  });

  it('gives finance the projects to calculate first', () => {
    expect(keys(navItemsFor(['FINANCIAL_SPECIALIST'], inCompany())).primary).toEqual(['projects', 'submit', 'my-suggestions', 'dashboard']);
    expect(keys(navItemsFor(['FINANCIAL_DIRECTOR'], inCompany())).primary).toEqual(['projects', 'registry', 'dashboard', 'submit']);
  });

  it('gives the owner goals, the registry to approve and the dashboard, then the proposals to review', () => {
    const items = navItemsFor(['OWNER'], inCompany());
    expect(keys(items).primary).toEqual(['goals', 'registry', 'dashboard', 'review']);
    expect(keys(items).more).toEqual(['submit', 'my-suggestions', 'projects', 'employees', 'departments', 'verification', 'add-company', 'profile']);
    // Whoever steps in on any proposal decides without waiting for the device's answer.
    expect(keys(navItemsFor(['OWNER'], inCompany({ suggestionAccess: undefined }))).primary).toContain('review');
  });

  it('gives HR the employees and the proposals to see, and the direction manager the projects to approve', () => {
    expect(keys(navItemsFor(['HR'], inCompany())).primary).toEqual(['employees', 'suggestions', 'submit', 'my-suggestions']);
    expect(keys(navItemsFor(['DIRECTION_MANAGER'], inCompany())).primary).toEqual(['projects', 'registry', 'suggestions', 'submit']);
    // An HR member who heads a department decides on its proposals.
    expect(keys(navItemsFor(['HR'], inCompany({ suggestionAccess: 'decide' }))).primary).toEqual(['employees', 'review', 'submit', 'my-suggestions']);
  });

  it('merges the work of several roles without repeating a destination, never more than the bar holds', () => {
    const items = navItemsFor(['OWNER', 'FINANCIAL_DIRECTOR', 'HR'], inCompany());
    expect(items.primary).toHaveLength(PRIMARY_MAX);
    expect(keys(items).primary).toEqual(['goals', 'registry', 'dashboard', 'projects']);
    const all = [...items.primary, ...items.more].map((item) => item.key);
    expect(new Set(all).size).toBe(all.length);
  });

  it('shows the verification invoice only to those who may download it', () => {
    for (const role of ['OWNER', 'CEO', 'FINANCIAL_DIRECTOR']) {
      expect(keys(navItemsFor([role], inCompany())).more, role).toContain('verification');
    }
    for (const role of ['EMPLOYEE', 'HR', 'FINANCIAL_SPECIALIST']) {
      const { primary, more } = keys(navItemsFor([role], inCompany()));
      expect([...primary, ...more], role).not.toContain('verification');
    }
  });

  it('offers a user without a company to add one, and no company page', () => {
    const items = keys(navItemsFor(null, { companyId: null, isAdmin: false }));
    expect(items).toEqual({ primary: ['add-company', 'dashboard'], more: ['profile'] });
  });

  it('gives the platform admin the payments to review first', () => {
    expect(keys(navItemsFor(null, { companyId: null, isAdmin: true }))).toEqual({ primary: ['admin', 'add-company', 'dashboard'], more: ['profile'] });
    expect(keys(navItemsFor(['EMPLOYEE'], inCompany({ isAdmin: true }))).primary[0]).toBe('admin');
  });

  it('keeps the profile (with the language and sign-out) behind "More" for every role', () => {
    for (const roles of [['OWNER'], ['EMPLOYEE'], ['HR'], ['CEO'], ['TOP_MANAGER'], ['FINANCIAL_SPECIALIST']]) {
      const items = keys(navItemsFor(roles, inCompany({ suggestionAccess: 'decide' })));
      expect(items.primary, roles.join()).not.toContain('profile');
      expect(items.more, roles.join()).toContain('profile');
    }
  });

  it('answers the access to proposals from the roles until the device has read it', () => {
    expect(suggestionAccessOf(['CEO'], undefined)).toBe('decide');
    expect(suggestionAccessOf(['HR'], undefined)).toBe('see');
    expect(suggestionAccessOf(['EMPLOYEE'], undefined)).toBeNull();
    expect(suggestionAccessOf(['EMPLOYEE'], 'decide')).toBe('decide');
  });
});

describe('the current entry', () => {
  const all = (roles: string[]) => {
    const items = navItemsFor(roles, inCompany({ suggestionAccess: 'decide' }));
    return [...items.primary, ...items.more];
  };

  it('is the entry of the page, or of the section the page is in', () => {
    expect(currentNavItem('/dashboard', all(['OWNER']))?.key).toBe('dashboard');
    expect(currentNavItem(`/companies/${C}/goals/g1`, all(['OWNER']))?.key).toBe('goals');
    expect(currentNavItem(`/companies/${C}/employees/e1`, all(['OWNER']))?.key).toBe('employees');
    expect(currentNavItem(`/companies/${C}/registry-approve`, all(['OWNER']))?.key).toBe('registry');
    expect(currentNavItem(`/companies/${C}/verification-payment-check`, all(['OWNER']))?.key).toBe('verification');
  });

  it('is the most specific entry when several hold the page', () => {
    expect(currentNavItem(`/companies/${C}/suggestions/create`, all(['OWNER']))?.key).toBe('submit');
    expect(currentNavItem(`/companies/${C}/suggestions/create-result`, all(['OWNER']))?.key).toBe('submit');
    expect(currentNavItem(`/companies/${C}/suggestions/s1`, all(['OWNER']))?.key).toBe('review');
    expect(currentNavItem('/profile/admin', [...navItemsFor(null, { companyId: null, isAdmin: true }).more, ...navItemsFor(null, { companyId: null, isAdmin: true }).primary])?.key).toBe('admin');
  });

  it('is none on a page no entry leads to, and never a mere prefix of a word', () => {
    expect(currentNavItem('/notifications', all(['OWNER']))).toBeNull();
    expect(currentNavItem('/dashboards', all(['OWNER']))).toBeNull();
  });
});
