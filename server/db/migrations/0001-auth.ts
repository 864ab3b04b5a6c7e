import type { Migration } from './migration';

export const migration: Migration = {
  id: '0001_auth',
  statements: [
    `CREATE TABLE users (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      email text NOT NULL,
      password_hash text NOT NULL,
      first_name text NOT NULL,
      last_name text NOT NULL,
      middle_name text,
      position text,
      other_position text,
      phone text,
      registration_company text,
      registration_inn text,
      main_goal text,
      role text NOT NULL,
      authorities text[] NOT NULL DEFAULT '{}',
      locale text NOT NULL DEFAULT 'ru' CHECK (locale IN ('ru', 'en')),
      email_verified_at timestamptz,
      active boolean NOT NULL DEFAULT true,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    )`,
    `CREATE UNIQUE INDEX users_email_key ON users (lower(email))`,
    `CREATE TABLE email_tokens (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
      kind text NOT NULL CHECK (kind IN ('verify', 'recovery')),
      token_hash text NOT NULL UNIQUE,
      expires_at timestamptz NOT NULL,
      used_at timestamptz,
      created_at timestamptz NOT NULL DEFAULT now()
    )`,
    `CREATE INDEX email_tokens_user_idx ON email_tokens (user_id, kind)`,
    `CREATE TABLE refresh_tokens (
      jti uuid PRIMARY KEY,
      family uuid NOT NULL,
      user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
      expires_at timestamptz NOT NULL,
      rotated_at timestamptz,
      revoked_at timestamptz,
      created_at timestamptz NOT NULL DEFAULT now()
    )`,
    `CREATE INDEX refresh_tokens_family_idx ON refresh_tokens (family)`,
    `CREATE INDEX refresh_tokens_user_idx ON refresh_tokens (user_id)`,
    `CREATE TABLE auth_attempts (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      scope text NOT NULL CHECK (scope IN ('account', 'address')),
      key text NOT NULL,
      attempted_at timestamptz NOT NULL DEFAULT now()
    )`,
    `CREATE INDEX auth_attempts_key_idx ON auth_attempts (scope, key, attempted_at)`,
    `CREATE TABLE mail_outbox (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      to_address text NOT NULL,
      subject text NOT NULL,
      text_body text NOT NULL,
      html_body text NOT NULL,
      link text,
      kind text NOT NULL,
      transport text NOT NULL CHECK (transport IN ('smtp', 'console')),
      created_at timestamptz NOT NULL DEFAULT now(),
      sent_at timestamptz,
      error text
    )`,
    `CREATE INDEX mail_outbox_to_idx ON mail_outbox (lower(to_address), created_at)`,
    `CREATE TABLE settings (
      key text PRIMARY KEY,
      value text NOT NULL,
      updated_at timestamptz NOT NULL DEFAULT now()
    )`,
  ],
};
