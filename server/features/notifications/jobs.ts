// The notifications feature's jobs, composed into the runner by app.ts: the instant mail of each `notify`
// (mail.ts) and the hourly digest pass (digest.ts). Both need the service's public address for their links.

import type { JobHandler, RecurringJob } from '../../jobs/runner';
import { NOTIFICATION_DIGEST_RECURRING, notificationDigestJob } from './digest';
import { notificationMailJob } from './mail';

export function notificationJobHandlers(appUrl: string): JobHandler[] {
  return [notificationMailJob(appUrl), notificationDigestJob(appUrl)];
}

export const NOTIFICATION_RECURRING: readonly RecurringJob[] = [NOTIFICATION_DIGEST_RECURRING];
