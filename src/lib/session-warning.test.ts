import { afterEach, describe, expect, it, vi } from 'vitest';
import { signOutWithWarning } from './session';

afterEach(() => vi.restoreAllMocks());

describe('sign-out with unsent changes', () => {
  it('signs out without asking when nothing is unsent', async () => {
    const confirm = vi.fn(() => Promise.resolve(true));
    const signOut = vi.fn(() => Promise.resolve());
    expect(await signOutWithWarning({ countUnsent: () => Promise.resolve(0), confirm, signOut })).toBe(true);
    expect(confirm).not.toHaveBeenCalled();
    expect(signOut).toHaveBeenCalledOnce();
  });

  it('asks first and stays signed in when the user keeps the session', async () => {
    const confirm = vi.fn(() => Promise.resolve(false));
    const signOut = vi.fn(() => Promise.resolve());
    expect(await signOutWithWarning({ countUnsent: () => Promise.resolve(2), confirm, signOut })).toBe(false);
    expect(confirm).toHaveBeenCalledWith(2);
    expect(signOut).not.toHaveBeenCalled();
  });

  it('signs out when the user confirms the warning', async () => {
    const signOut = vi.fn(() => Promise.resolve());
    expect(await signOutWithWarning({ countUnsent: () => Promise.resolve(1), confirm: () => Promise.resolve(true), signOut })).toBe(true);
    expect(signOut).toHaveBeenCalledOnce();
  });

  it('asks when the unsent changes cannot be counted', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const confirm = vi.fn(() => Promise.resolve(false));
    const signOut = vi.fn(() => Promise.resolve());
    expect(await signOutWithWarning({ countUnsent: () => Promise.reject(new Error('closed')), confirm, signOut })).toBe(false);
    expect(confirm).toHaveBeenCalledWith(-1);
    expect(signOut).not.toHaveBeenCalled();
  });
});
