// Builds the main-service as a Fastify app without listening: index.ts listens, tests use inject().
// Everything under /main-service/api/v1 is JSON; errors of any kind leave through one handler as
// `{ message, errors? }` in the request's language. Everything else is the built PWA.

import fastifyCompress from '@fastify/compress';
import Fastify, { type FastifyError, type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { API_PREFIX } from '../src/domain/paths';
import { systemClock, type Clock } from './clock';
import type { Config } from './config';
import type { AppContext } from './context';
import { createPasswordService } from './context';
import type { Database } from './db/database';
import { AppError } from './errors';
import { parseLocale } from './i18n/messages';
import { createMailer } from './mail/mailer';
import { mailJobHandlers } from './mail/outbox';
import { createJobRunner } from './jobs/runner';
import { MAINTENANCE_JOB_HANDLERS, MAINTENANCE_RECURRING } from './jobs/maintenance';
import { FILE_JOB_HANDLERS, FILE_RECURRING } from './features/files/jobs';
import { authJobHandlers } from './features/auth/jobs';
import { createRequireUser } from './auth/require-user';
import { createTokenService, resolveJwtSecret } from './auth/tokens';
import { authRoutes } from './features/auth/routes';
import { fileRoutes } from './features/files/routes';
import { sessionRoutes } from './features/session/routes';
import { registerStatic } from './static';
import { registerSecurityHeaders, securityHeadersFor } from './security-headers';
import { recordRoutes, registerInputChecks } from './http';
import { errorAnswer, registerIdempotencyHook } from './idempotency';
import { SUGGESTION_ACT_OPERATIONS, submitSuggestionOperation, suggestionRoutes } from './features/suggestions/routes';
import { syncRoutes } from './features/sync/routes';
import { notificationRoutes, readNotificationsOperation } from './features/notifications/routes';
import { NOTIFICATION_RECURRING, notificationJobHandlers } from './features/notifications/jobs';
import { DEADLINE_JOB_HANDLERS, DEADLINE_RECURRING } from './features/suggestions/deadlines';
import { GOAL_OPERATIONS, goalRoutes } from './features/goals/routes';
import { PROJECT_OPERATIONS, projectRoutes } from './features/projects/routes';
import { REGISTRY_OPERATIONS, registryRoutes } from './features/registry/routes';
import { registryExportRoutes } from './features/registry/export-routes';
import { dashboardRoutes } from './features/dashboard/routes';
import { PROJECT_REPORT_JOB_HANDLERS, PROJECT_REPORT_RECURRING } from './features/projects/reports';
import { pushRoute } from './features/push/routes';
import { employeeImportRoutes } from './features/employees/import/routes';
import { departmentRoutes } from './features/departments/routes';
import { registerRoutes, type DeclaredRoute } from './route';
import { employeeRoutes } from './features/employees/routes';
import { invitationRoutes } from './features/invitations/routes';
import { companyRoutes } from './features/companies/routes';
import { adminCompanyRoutes } from './features/companies/admin-routes';

export const BODY_LIMIT = 1024 * 1024;

/** The writes the outbox may send in a batch through POST /sync/push; each is also its own route. */
const PUSHABLE_OPERATIONS = [submitSuggestionOperation, ...SUGGESTION_ACT_OPERATIONS, readNotificationsOperation, ...GOAL_OPERATIONS, ...PROJECT_OPERATIONS, ...REGISTRY_OPERATIONS];

/** Every declared route of the API (server/route.ts), registered below and walked by the fuzz test. */
export const DECLARED_ROUTES: readonly DeclaredRoute[] = [
  ...authRoutes,
  ...sessionRoutes,
  ...companyRoutes,
  ...adminCompanyRoutes,
  ...departmentRoutes,
  ...employeeRoutes,
  ...employeeImportRoutes,
  ...invitationRoutes,
  ...suggestionRoutes,
  ...notificationRoutes,
  ...goalRoutes,
  ...projectRoutes,
  ...registryRoutes,
  ...registryExportRoutes,
  ...dashboardRoutes,
  ...syncRoutes,
  ...fileRoutes,
  pushRoute(PUSHABLE_OPERATIONS),
];

export interface BuildAppOptions {
  config: Config;
  db: Database;
  /** Where the console mail transport prints (default console.log). */
  printMail?: (line: string) => void;
  /** Default: the system clock. */
  clock?: Clock;
  /** Jobs run at once (runner.ts default); tests run them one by one, so their mails come in a fixed order. */
  jobConcurrency?: number;
}

export interface BuiltApp {
  app: FastifyInstance;
  ctx: AppContext;
}

export async function buildApp({ config, db, printMail, clock = systemClock, jobConcurrency }: BuildAppOptions): Promise<BuiltApp> {
  const app = Fastify({
    bodyLimit: BODY_LIMIT,
    logger: config.logLevel === 'silent' ? false : { level: config.logLevel },
    // Names the client's address for throttling; behind a proxy set trustProxy in a later issue.
    trustProxy: false,
    // A request refused before routing (a malformed URL) runs no hook: its headers and answer are written here.
    frameworkErrors: (error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
      const answer = errorAnswer(error, parseLocale(request.headers.language));
      void reply
        .code(answer.status)
        .headers({ ...securityHeadersFor(request), 'Cache-Control': 'no-store', ...answer.headers })
        .type('application/json; charset=utf-8')
        .send(answer.body);
    },
  });
  // First, so that every answer below (API, static files, errors, 404s) carries them.
  registerSecurityHeaders(app);
  // Before any route is added: the list the fuzz test walks, and the one check of query strings and path parameters.
  recordRoutes(app);
  registerInputChecks(app);

  const tokens = createTokenService(db, await resolveJwtSecret(db, config.jwtSecret), config.refreshReuseGraceMs);
  const mailer = createMailer({ smtpUrl: config.smtpUrl, from: config.mailFrom, ...(printMail ? { print: printMail } : {}) });
  // Every job kind of the service, composed from the modules that own them (a feature exports its handlers).
  const jobs = createJobRunner({
    db,
    clock,
    log: app.log,
    handlers: [
      ...MAINTENANCE_JOB_HANDLERS,
      ...mailJobHandlers(mailer),
      ...authJobHandlers(config.appUrl),
      ...FILE_JOB_HANDLERS,
      ...notificationJobHandlers(config.appUrl),
      ...DEADLINE_JOB_HANDLERS,
      ...PROJECT_REPORT_JOB_HANDLERS,
    ],
    recurring: [...MAINTENANCE_RECURRING, ...FILE_RECURRING, ...NOTIFICATION_RECURRING, ...DEADLINE_RECURRING, ...PROJECT_REPORT_RECURRING],
    ...(jobConcurrency ? { concurrency: jobConcurrency } : {}),
  });
  const ctx: AppContext = {
    config,
    clock,
    db,
    jobs,
    tokens,
    passwords: createPasswordService(config.passwordScryptLogN),
    requireUser: createRequireUser(db, tokens),
  };
  // A listening server polls for jobs (and routes wake it); tests that only inject() run them by hand
  // (ctx.jobs.runDue()), so what a test sees does not depend on a timer.
  app.addHook('onListen', (done) => {
    jobs.start();
    done();
  });
  app.addHook('onClose', async () => {
    await jobs.stop();
    await mailer.close();
  });

  // JSON only; an empty body reads as "no body" (POST /auth/refresh-token sends none).
  app.removeAllContentTypeParsers();
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    if (typeof body === 'string' && body.trim() === '') {
      done(null, undefined);
      return;
    }
    // The default parser also refuses __proto__ and constructor poisoning.
    void parseJson(request, typeof body === 'string' ? body : body.toString('utf8'), done);
  });

  app.setErrorHandler((error, request, reply) => {
    const answer = errorAnswer(error, parseLocale(request.headers.language));
    if (answer.status >= 500) request.log.error({ err: error }, 'request failed');
    return reply
      .code(answer.status)
      .headers({ 'Cache-Control': 'no-store', ...answer.headers })
      .type('application/json; charset=utf-8')
      .send(answer.body);
  });

  await app.register(
    async (api) => {
      // The API's answers go out brotli- or gzip-encoded when the browser accepts it and they are worth it (1 KB or
      // more, a compressible type): a first sync pull of a company is JSON that shrinks to a sixth, on a phone's
      // connection the longest wait of a first start. Request bodies are not decompressed: clients send them plain.
      await api.register(fastifyCompress, { encodings: ['br', 'gzip'], threshold: 1024, globalDecompression: false });
      registerIdempotencyHook(api);
      registerRoutes(api, ctx, DECLARED_ROUTES);
      api.setNotFoundHandler(() => {
        throw new AppError('notFound', 404);
      });
    },
    { prefix: API_PREFIX },
  );

  const site = await registerStatic(app, config.staticDir);
  app.setNotFoundHandler(async (request, reply) => {
    // Paths that only look like the API (wrong version, missing prefix piece) still get JSON.
    if (request.url.startsWith('/main-service/')) throw new AppError('notFound', 404);
    return site.handleNotFound(request, reply);
  });

  return { app, ctx };
}
