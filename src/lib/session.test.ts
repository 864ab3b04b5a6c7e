import { describe, expect, it } from 'vitest';
import type { CurrentUser } from '../domain/user';
import { nextSessionStep, type Outcome } from './session';

const verifiedUser: CurrentUser = {
  id: 'u1',
  email: 'owner@demo.local',
  telephone: '+7 900 000-00-00',
  hrInviterData: null,
  department: null,
  company: { name: 'ООО «Демо Завод»', inn: '7712345671' },
  fullName: 'Иванов Иван',
  firstName: 'Иван',
  lastName: 'Иванов',
  middleName: null,
  position: 'OWNER',
  otherPosition: null,
  mainGoal: 'COST_REDUCTION',
  role: 'OWNER',
  email_verified_at: '2025-01-01T00:00:00Z',
  active: true,
  username: 'owner@demo.local',
  authorities: [{ authority: 'ROLE_OWNER' }],
  emailVerified: true,
  accountNonExpired: true,
  accountNonLocked: true,
  credentialsNonExpired: true,
  enabled: true,
  locale: 'ru',
};

const answer = (body: unknown): Outcome => ({ ok: true, body });
const failure = (status: number, message: string | null = null): Outcome => ({ ok: false, status, message });

const enumsAnswer = answer({ data: { enums: { CURRENCY: [{ id: 'RUB', title: 'Рубль' }] }, supportLink: 'https://t.me/support' }, message: 'ok' });
const unitsAnswer = answer({
  data: [
    { id: 'MINUTES', title: 'Минуты', type: 'BASE_INDICATOR' },
    { id: 'RUB', title: 'Рубль', type: 'CURRENCY' },
  ],
  message: 'ok',
});

describe('session rules (spec section 4)', () => {
  it('sends a visitor without an access token to the login route', () => {
    expect(nextSessionStep({ accessToken: null })).toEqual({ kind: 'go-login' });
    expect(nextSessionStep({ accessToken: '', user: answer({ data: verifiedUser }) })).toEqual({ kind: 'go-login' });
  });

  it('loads the user first when a token exists', () => {
    expect(nextSessionStep({ accessToken: 'a' })).toEqual({ kind: 'load-user' });
  });

  it('marks the app broken when the user fetch returns no data', () => {
    expect(nextSessionStep({ accessToken: 'a', user: answer(null) })).toEqual({ kind: 'broken', reason: 'user', status: 200 });
    expect(nextSessionStep({ accessToken: 'a', user: answer({ message: 'ok' }) })).toEqual({ kind: 'broken', reason: 'user', status: 200 });
  });

  it('marks the app broken when the user answer does not hold a valid user', () => {
    const { email: _email, ...withoutEmail } = verifiedUser;
    expect(nextSessionStep({ accessToken: 'a', user: answer({ data: withoutEmail }) })).toEqual({ kind: 'broken', reason: 'user', status: 200 });
  });

  it("sends the user to login when the answer says 'Token Expired.'", () => {
    expect(nextSessionStep({ accessToken: 'a', user: failure(403, 'Token Expired.') })).toEqual({ kind: 'go-login' });
  });

  it('sends the user to login when the token is refused outright (401)', () => {
    expect(nextSessionStep({ accessToken: 'a', user: failure(401, 'Unauthorized') })).toEqual({ kind: 'go-login' });
  });

  it('marks the app broken when the user fetch fails otherwise (no answer, server error)', () => {
    // The status goes with it, so the broken screen tells a dead connection from a server failure.
    expect(nextSessionStep({ accessToken: 'a', user: failure(0) })).toEqual({ kind: 'broken', reason: 'user', status: 0 });
    expect(nextSessionStep({ accessToken: 'a', user: failure(500, 'Internal error') })).toEqual({ kind: 'broken', reason: 'user', status: 500 });
  });

  it('sends a user whose e-mail is not verified to the confirmation route, without loading the config', () => {
    const unverified = { ...verifiedUser, emailVerified: false, email_verified_at: null };
    const step = nextSessionStep({ accessToken: 'a', user: answer({ data: unverified }), config: { enums: enumsAnswer, units: unitsAnswer } });
    expect(step.kind).toBe('go-confirm-email');
  });

  it('loads the app config once the e-mail is verified', () => {
    expect(nextSessionStep({ accessToken: 'a', user: answer({ data: verifiedUser }) })).toEqual({ kind: 'load-config', user: verifiedUser });
  });

  it('is ready with the user and a config that keeps only BASE_INDICATOR units', () => {
    const step = nextSessionStep({ accessToken: 'a', user: answer({ data: verifiedUser }), config: { enums: enumsAnswer, units: unitsAnswer } });
    expect(step).toEqual({
      kind: 'ready',
      user: verifiedUser,
      config: {
        units: [{ id: 'MINUTES', title: 'Минуты', type: 'BASE_INDICATOR' }],
        enums: { CURRENCY: [{ id: 'RUB', title: 'Рубль' }] },
        supportLink: 'https://t.me/support',
      },
    });
  });

  it('marks the app broken when either config call fails or answers nonsense', () => {
    const user = answer({ data: verifiedUser });
    expect(nextSessionStep({ accessToken: 'a', user, config: { enums: failure(500), units: unitsAnswer } })).toEqual({ kind: 'broken', reason: 'config', status: 500 });
    expect(nextSessionStep({ accessToken: 'a', user, config: { enums: enumsAnswer, units: failure(0) } })).toEqual({ kind: 'broken', reason: 'config', status: 0 });
    expect(nextSessionStep({ accessToken: 'a', user, config: { enums: enumsAnswer, units: answer({ data: 'units' }) } })).toEqual({ kind: 'broken', reason: 'config', status: 200 });
    expect(nextSessionStep({ accessToken: 'a', user, config: { enums: answer(null), units: unitsAnswer } })).toEqual({ kind: 'broken', reason: 'config', status: 200 });
  });
});
