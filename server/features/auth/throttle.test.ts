// Sign-in and registration throttling through the real routes, on a clock the tests move by hand, and the
// bounded password-hash queue seen from the outside (auth/throttle.ts and auth/hash-queue.ts say what holds).
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createManualClock } from '../../clock';
import { createPasswordService, type PasswordService } from '../../context';
import { createHashQueue } from '../../auth/hash-queue';
import { scryptKey, type DeriveKey } from '../../auth/passwords';
import { REGISTRATIONS_IN_ALL } from '../../auth/throttle';
import { api, clientAddress, createTestApp, json, registrationInput, signUp, uniqueEmail, type TestApp } from '../../test-support';

const clock = createManualClock(new Date());
let t: TestApp;

beforeAll(async () => {
  t = await createTestApp({}, undefined, { clock });
});
afterAll(() => t.close());

const MINUTE = 60_000;

const signIn = (email: string, password: string, remoteAddress: string, headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'POST', url: api('/auth/login'), remoteAddress, headers, payload: { email, password } });

const register = (remoteAddress: string, input: Record<string, unknown> = registrationInput(), headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'POST', url: api('/auth/register'), remoteAddress, headers, payload: input });

describe('sign-in failures from one address do not lock the owner out', () => {
  it('lets the owner in from a new address after 50 attempts from another, which is refused with 429', async () => {
    const { email, password } = await signUp(t);
    const attacker = clientAddress();
    const codes: number[] = [];
    for (let i = 0; i < 50; i++) codes.push((await signIn(email, `guess ${i}`, attacker)).statusCode);
    expect(codes.filter((c) => c === 401)).toHaveLength(5);
    expect(codes.slice(5).every((c) => c === 429)).toBe(true);

    expect((await signIn(email, password, clientAddress())).statusCode).toBe(200);

    const refused = await signIn(email, 'guess 51', attacker, { Language: 'en' });
    expect(refused.statusCode).toBe(429);
    expect(json(refused)).toEqual({ message: 'Too many sign-in attempts. Try again in 15 minutes.' });
    const retryAfter = Number(refused.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(14 * 60);
    expect(retryAfter).toBeLessThanOrEqual(15 * 60);
    expect(json(await signIn(email, 'guess 52', attacker))).toEqual({ message: 'Слишком много попыток входа. Повторите через 15 минут.' });
  });

  it("refuses the attacker's address even with the right password until its window ends, then lets it in", async () => {
    const { email, password } = await signUp(t);
    const attacker = clientAddress();
    for (let i = 0; i < 5; i++) expect((await signIn(email, `guess ${i}`, attacker)).statusCode).toBe(401);
    // Answering it would tell the attacker which guess was right.
    const blocked = await signIn(email, password, attacker);
    expect(blocked.statusCode).toBe(429);
    clock.advance(Number(blocked.headers['retry-after']) * 1000 - 1000);
    expect((await signIn(email, password, attacker)).statusCode).toBe(429);
    clock.advance(1000);
    expect((await signIn(email, password, attacker)).statusCode).toBe(200);
  });

  it('slows a distributed attack to 2 failures per address once the account has 10, still letting the owner in', async () => {
    const { email, password } = await signUp(t);
    const attackers = Array.from({ length: 25 }, () => clientAddress());
    for (const address of attackers) {
      for (let i = 0; i < 2; i++) expect((await signIn(email, `guess ${i}`, address)).statusCode).toBe(401);
    }
    // 50 failures from 25 addresses: an address that failed twice gets no third try.
    expect((await signIn(email, 'guess 3', attackers[0] ?? '')).statusCode).toBe(429);
    expect((await signIn(email, password, attackers[24] ?? '')).statusCode).toBe(429);
    // A fresh address still gets two tries, so the owner may mistype once.
    const owner = clientAddress();
    expect((await signIn(email, 'typo', owner)).statusCode).toBe(401);
    expect((await signIn(email, password, owner)).statusCode).toBe(200);
  });

  it('clears the failures of the pair when the password is right', async () => {
    const { email, password } = await signUp(t);
    const address = clientAddress();
    for (let i = 0; i < 4; i++) expect((await signIn(email, 'wrong password', address)).statusCode).toBe(401);
    expect((await signIn(email, password, address)).statusCode).toBe(200);
    for (let i = 0; i < 4; i++) expect((await signIn(email, 'wrong password', address)).statusCode).toBe(401);
    expect((await signIn(email, password, address)).statusCode).toBe(200);
  });

  it('counts guesses sent at once like guesses sent one after another', async () => {
    const { email } = await signUp(t);
    const address = clientAddress();
    const answers = await Promise.all(Array.from({ length: 12 }, (_, i) => signIn(email, `guess ${i}`, address)));
    const codes = answers.map((a) => a.statusCode).sort();
    expect(codes).toEqual([...Array<number>(5).fill(401), ...Array<number>(7).fill(429)]);
  });

  it('refuses an address after 20 failures across accounts, and only that address', async () => {
    const address = clientAddress();
    for (let i = 0; i < 20; i++) expect((await signIn(uniqueEmail(), 'wrong password', address)).statusCode).toBe(401);
    const blocked = await signIn(uniqueEmail(), 'wrong password', address);
    expect(blocked.statusCode).toBe(429);
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
    expect((await signIn(uniqueEmail(), 'wrong password', clientAddress())).statusCode).toBe(401);
    clock.advance(15 * MINUTE);
    expect((await signIn(uniqueEmail(), 'wrong password', address)).statusCode).toBe(401);
  });

  it("lets a password change clear the failures of every address on the account (they guessed the old one)", async () => {
    const owner = await signUp(t);
    const attacker = clientAddress();
    for (let i = 0; i < 5; i++) await signIn(owner.email, `guess ${i}`, attacker);
    expect((await signIn(owner.email, 'guess 5', attacker)).statusCode).toBe(429);
    const changed = await t.app.inject({
      method: 'POST',
      url: api('/user/password'),
      remoteAddress: clientAddress(),
      headers: { authorization: `Bearer ${owner.access}` },
      payload: { currentPassword: owner.password, newPassword: 'a brand new secret' },
    });
    expect(changed.statusCode).toBe(200);
    expect((await signIn(owner.email, 'guess 5', attacker)).statusCode).toBe(401);
  });
});

describe('registration throttle', () => {
  it('takes 10 registrations an hour from one address, refusing the 11th with 429, Retry-After and a localized message', async () => {
    const address = clientAddress();
    for (let i = 0; i < 10; i++) expect((await register(address)).statusCode).toBe(200);
    const input = registrationInput();
    const refused = await register(address, input, { Language: 'en' });
    expect(refused.statusCode).toBe(429);
    expect(json(refused)).toEqual({ message: 'Too many registrations. Try again in 60 minutes.' });
    expect(Number(refused.headers['retry-after'])).toBe(3600);
    expect(json(await register(address))).toEqual({ message: 'Слишком много регистраций. Повторите через 60 минут.' });
    expect(await t.db.one('SELECT count(*)::int AS n FROM users WHERE email = $1', [String(input.email)])).toEqual({ n: 0 });
    // Another address is not affected; the first is welcome again once the hour has passed.
    expect((await register(clientAddress())).statusCode).toBe(200);
    clock.advance(60 * MINUTE);
    expect((await register(address)).statusCode).toBe(200);
  });

  it('applies to HR registration too, in the same count', async () => {
    const address = clientAddress();
    for (let i = 0; i < 10; i++) expect((await register(address)).statusCode).toBe(200);
    const { role: _role, mainGoal: _goal, ...hr } = registrationInput({ position: 'HR_SPECIALIST' });
    const refused = await t.app.inject({ method: 'POST', url: api('/auth/register/hr'), remoteAddress: address, payload: hr });
    expect(refused.statusCode).toBe(429);
    // The next tests start with a fresh hour.
    clock.advance(60 * MINUTE);
  });

  it('caps registrations from all addresses together at 300 an hour', async () => {
    // 300 registrations counted in the last hour (as takeRate counts them), from many addresses.
    await t.db.query(`INSERT INTO rate_events (bucket, key, at) SELECT $1, '*', $2 FROM generate_series(1, 300)`, [
      REGISTRATIONS_IN_ALL.bucket,
      new Date(clock.now().getTime() - 30 * MINUTE),
    ]);
    const address = clientAddress();
    const refused = await register(address);
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBe(30 * 60);
    clock.advance(30 * MINUTE);
    // The refusal counted nowhere: the address has its 10 and the whole service its 300 again.
    expect((await register(address)).statusCode).toBe(200);
  });

  it('is checked before the password is hashed: a refused registration costs no scrypt', async () => {
    const derivations = { count: 0 };
    const counting: DeriveKey = (...args) => {
      derivations.count += 1;
      return scryptKey(...args);
    };
    const original = t.ctx.passwords;
    t.ctx.passwords = createPasswordService(t.config.passwordScryptLogN, { derive: counting });
    try {
      const address = clientAddress();
      for (let i = 0; i < 10; i++) await register(address);
      expect(derivations.count).toBe(10);
      for (let i = 0; i < 5; i++) expect((await register(address)).statusCode).toBe(429);
      expect(derivations.count).toBe(10);
    } finally {
      t.ctx.passwords = original;
    }
  });
});

/** Derivations that wait until the test releases them (by password), recording the order they started in. */
function gatedDerive() {
  const started: string[] = [];
  const waiting = new Map<string, () => void>();
  let isOpen = false;
  const derive: DeriveKey = async (password, salt, logN, r, p) => {
    started.push(password);
    if (!isOpen) await new Promise<void>((resolve) => waiting.set(password, resolve));
    return scryptKey(password, salt, logN, r, p);
  };
  return {
    derive,
    started,
    release(password: string) {
      const resolve = waiting.get(password);
      if (!resolve) throw new Error(`no derivation of "${password}" is waiting`);
      waiting.delete(password);
      resolve();
    },
    /** Releases every derivation, waiting or still to come. */
    open() {
      isOpen = true;
      for (const resolve of waiting.values()) resolve();
      waiting.clear();
    },
  };
}

describe('bounded password hashing', () => {
  let original: PasswordService;
  beforeAll(() => {
    original = t.ctx.passwords;
  });
  afterEach(() => {
    t.ctx.passwords = original;
  });

  it('serves a sign-in before the registrations queued ahead of it, and refuses registrations beyond the line with 503', async () => {
    const owner = await signUp(t, { password: 'owner password' });
    const gate = gatedDerive();
    const queue = createHashQueue({ concurrency: 1, signInReserve: 0, maxWaiting: { signIn: 4, other: 3 } });
    t.ctx.passwords = createPasswordService(t.config.passwordScryptLogN, { queue, derive: gate.derive });

    const answered: string[] = [];
    const registrations = [1, 2, 3, 4].map((i) =>
      register(clientAddress(), registrationInput({ password: `registration ${i}` })).then((response) => {
        answered.push(`registration ${i}`);
        return response;
      }),
    );
    await vi.waitFor(() => expect(queue.stats()).toEqual({ running: 1, waiting: { signIn: 0, other: 3 } }));

    const busy = await register(clientAddress(), registrationInput(), { Language: 'en' });
    expect(busy.statusCode).toBe(503);
    expect(json<{ message: string }>(busy).message).toMatch(/^The server is busy\. Try again in \d+ seconds?\.$/);
    expect(Number(busy.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(json<{ message: string }>(await register(clientAddress())).message).toMatch(/^Сервер перегружен\. Повторите через \d+ секунд/);

    const ownerIn = signIn(owner.email, owner.password, clientAddress()).then((response) => {
      answered.push('sign-in');
      return response;
    });
    await vi.waitFor(() => expect(queue.stats().waiting.signIn).toBe(1));
    // The four reach the queue in whatever order the database lets them through.
    const [first = ''] = gate.started;
    gate.release(first);
    await vi.waitFor(() => expect(gate.started).toEqual([first, 'owner password']));
    gate.release('owner password');
    expect((await ownerIn).statusCode).toBe(200);
    expect(answered.filter((a) => a !== first)).toEqual(['sign-in']);
    expect(queue.stats().waiting.other).toBe(2);

    gate.open();
    expect((await Promise.all(registrations)).map((r) => r.statusCode)).toEqual([200, 200, 200, 200]);
    expect(gate.started.slice(0, 2)).toEqual([first, 'owner password']);
    expect(gate.started.slice(2).sort()).toEqual(['registration 1', 'registration 2', 'registration 3', 'registration 4'].filter((r) => r !== first));
  });

  it('keeps a slot for sign-ins by default: a sign-in is hashed while a registration holds the shared slot', async () => {
    const owner = await signUp(t, { password: 'owner password' });
    const gate = gatedDerive();
    const queue = createHashQueue({ concurrency: 1, signInReserve: 1, maxWaiting: { signIn: 4, other: 4 } });
    t.ctx.passwords = createPasswordService(t.config.passwordScryptLogN, { queue, derive: gate.derive });

    const registrations = [1, 2, 3].map((i) => register(clientAddress(), registrationInput({ password: `registration ${i}` })));
    await vi.waitFor(() => expect(queue.stats()).toEqual({ running: 1, waiting: { signIn: 0, other: 2 } }));
    const ownerIn = signIn(owner.email, owner.password, clientAddress());
    await vi.waitFor(() => expect(gate.started).toEqual([expect.stringMatching(/^registration/), 'owner password']));
    gate.release('owner password');
    expect((await ownerIn).statusCode).toBe(200);
    expect(queue.stats()).toEqual({ running: 1, waiting: { signIn: 0, other: 2 } });

    gate.open();
    expect((await Promise.all(registrations)).map((r) => r.statusCode)).toEqual([200, 200, 200]);
  });

  it('does not count a sign-in refused for a full queue as a failed attempt', async () => {
    const { email, password } = await signUp(t);
    const gate = gatedDerive();
    const queue = createHashQueue({ concurrency: 1, signInReserve: 0, maxWaiting: { signIn: 0, other: 0 } });
    t.ctx.passwords = createPasswordService(t.config.passwordScryptLogN, { queue, derive: gate.derive });
    const holder = register(clientAddress(), registrationInput({ password: 'holder password' }));
    await vi.waitFor(() => expect(queue.stats().running).toBe(1));
    const address = clientAddress();
    for (let i = 0; i < 6; i++) expect((await signIn(email, `guess ${i}`, address)).statusCode).toBe(503);
    gate.open();
    expect((await holder).statusCode).toBe(200);
    t.ctx.passwords = original;
    // Six refusals for a busy server, none of them a guess: the address still has its 5 tries.
    for (let i = 0; i < 4; i++) expect((await signIn(email, `guess ${i}`, address)).statusCode).toBe(401);
    expect((await signIn(email, password, address)).statusCode).toBe(200);
  });
});
