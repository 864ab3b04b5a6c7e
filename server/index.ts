// The main-service process: configuration, database, migrations, demo data, then one port for the
// PWA and the API. SIGTERM and SIGINT close the server (in-flight requests finish), then the
// database (releasing the PGlite directory lock), and exit 0.

import path from 'node:path';
import { ConfigError, loadConfig, shouldSeedDemo } from './config';
import { openDatabase, type Database } from './db/database';
import { DataDirLockedError } from './db/lock';
import { migrate } from './db/migrations';
import { buildApp } from './app';
import { DEMO_PASSWORD, listDemoLogins, seedDemo } from './features/demo/seed';

async function main(): Promise<void> {
  const config = loadConfig();
  const db: Database = await openDatabase({
    databaseUrl: config.databaseUrl,
    schema: config.databaseSchema,
    dataDir: path.resolve(config.dataDir),
  });
  let closing = false;
  try {
    const applied = await migrate(db);
    if (applied.length > 0) console.log(`Database: applied migrations ${applied.join(', ')}`);
    if (shouldSeedDemo(config)) await seedDemo(db, config.passwordScryptLogN);

    const { app } = await buildApp({ config, db });
    const shutdown = (signal: string) => {
      if (closing) return;
      closing = true;
      console.log(`${signal}: shutting down`);
      app
        .close()
        .then(() => db.close())
        .then(() => process.exit(0))
        .catch((error: unknown) => {
          console.error('Shutdown failed:', error);
          process.exit(1);
        });
    };
    process.on('SIGTERM', () => shutdown('SIGTERM'));
    process.on('SIGINT', () => shutdown('SIGINT'));

    await app.listen({ port: config.port, host: config.host });
    const address = app.server.address();
    const port = typeof address === 'object' && address ? address.port : config.port;
    const url = process.env.APP_URL ? config.appUrl : `http://localhost:${port}`;
    const demo = await listDemoLogins(db);
    // One write, so whoever watches the output sees the whole banner at once.
    const lines = [
      `Dashboard is running at ${url}`,
      `Database: ${db.kind === 'pglite' ? `PGlite in ${path.resolve(config.dataDir)}` : 'PostgreSQL (DATABASE_URL)'}`,
      config.smtpUrl ? 'Mail: SMTP (SMTP_URL)' : 'Mail: printed here and kept in mail_outbox (no SMTP_URL)',
    ];
    if (demo.length > 0) {
      lines.push(`Demo logins (password ${DEMO_PASSWORD}):`);
      for (const login of demo) lines.push(`  ${login.email.padEnd(22)} ${login.label}`);
    }
    console.log(lines.join('\n'));
  } catch (error) {
    if (!closing) await db.close();
    throw error;
  }
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError || error instanceof DataDirLockedError) {
    console.error(error.message);
  } else {
    console.error('The main-service could not start:', error);
  }
  process.exit(1);
});
