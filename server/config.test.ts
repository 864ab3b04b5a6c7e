import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, shouldSeedDemo } from './config';

describe('configuration', () => {
  it('has defaults for a laptop', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      port: 8080,
      host: '0.0.0.0',
      databaseUrl: undefined,
      dataDir: './data',
      smtpUrl: undefined,
      appUrl: 'http://localhost:8080',
      staticDir: 'dist',
      passwordScryptLogN: 17,
      refreshReuseGraceMs: 10_000,
    });
    expect(config.supportLink).toMatch(/^https:\/\/t\.me\//);
  });

  it('derives APP_URL from PORT and trims a trailing slash', () => {
    expect(loadConfig({ PORT: '9000' }).appUrl).toBe('http://localhost:9000');
    expect(loadConfig({ APP_URL: 'https://ideas.example.com/' }).appUrl).toBe('https://ideas.example.com');
  });

  it('names every bad variable in one clear message', () => {
    const attempt = () => loadConfig({ PORT: 'eighty', DATABASE_URL: 'mysql://x', JWT_SECRET: 'short', SEED_DEMO: 'maybe' });
    expect(attempt).toThrow(ConfigError);
    try {
      attempt();
    } catch (error) {
      const message = (error as Error).message;
      expect(message).toContain('PORT="eighty"');
      expect(message).toContain('DATABASE_URL="mysql://x": must start with postgres: or postgresql:');
      expect(message).toContain('JWT_SECRET="short": must be at least 32 characters long');
      expect(message).toContain('SEED_DEMO="maybe"');
    }
  });

  it('reads the invoice payee from INVOICE_PAYEE and names a bad field of it', () => {
    const payee = {
      name: { ru: 'ООО «Оператор»', en: 'Operator LLC' },
      inn: '7707083893',
      kpp: '773601001',
      bank: { ru: 'ПАО Банк', en: 'Bank PJSC' },
      bic: '044525225',
      correspondentAccount: '30101810400000000225',
      account: '40702810938000000001',
    };
    expect(loadConfig({}).invoicePayee).toBeUndefined();
    expect(loadConfig({ INVOICE_PAYEE: JSON.stringify(payee) }).invoicePayee).toEqual(payee);
    expect(() => loadConfig({ INVOICE_PAYEE: JSON.stringify({ ...payee, bic: '12' }) })).toThrow(/INVOICE_PAYEE\.bic=.*bic must be 9 digits/);
    expect(() => loadConfig({ INVOICE_PAYEE: '{not json' })).toThrow(ConfigError);
  });

  it('refuses a port out of range', () => {
    expect(() => loadConfig({ PORT: '70000' })).toThrow(/PORT="70000": must be a whole number/);
  });

  it('treats empty variables as unset', () => {
    expect(loadConfig({ DATABASE_URL: '', SMTP_URL: ' ' }).databaseUrl).toBeUndefined();
  });

  it('seeds an embedded database unless told not to, and a PostgreSQL server only when asked', () => {
    expect(shouldSeedDemo(loadConfig({}))).toBe(true);
    expect(shouldSeedDemo(loadConfig({ SEED_DEMO: '0' }))).toBe(false);
    expect(shouldSeedDemo(loadConfig({ DATABASE_URL: 'postgres://db/x' }))).toBe(false);
    expect(shouldSeedDemo(loadConfig({ DATABASE_URL: 'postgres://db/x', SEED_DEMO: '1' }))).toBe(true);
  });
});
