import { FormattedDate, FormattedMessage, useIntl } from 'react-intl';
import type { ProjectStatus, ReportingFrequency } from '../../../domain/project';
import type { OutboxStatus } from '../../../lib/db/database';
import { loadAuthorizedImage } from '../../../lib/authorized-image';
import { AuthorizedPhoto } from '../../../ui/authorized-photo';
import { calendarDateValue, formatMoney } from './project-detail-format';

/** An amount in minor units, in the project's currency. */
export function MoneyText({ amountMinor, currency }: { amountMinor: number; currency: string }) {
  const intl = useIntl();
  return <span className="project-detail__money">{formatMoney(intl, amountMinor, currency)}</span>;
}

/** A calendar date ('YYYY-MM-DD') as 01.12.2026 / 12/01/2026, never shifted by the time zone. */
export function CalendarDateText({ date }: { date: string }) {
  return (
    <time dateTime={date}>
      <FormattedDate value={calendarDateValue(date)} day="2-digit" month="2-digit" year="numeric" timeZone="UTC" />
    </time>
  );
}

export function ProjectStatusText({ status }: { status: ProjectStatus }) {
  return (
    <FormattedMessage
      id="projects.detail.statusName"
      defaultMessage="{status, select, NEW {New} CALCULATING {Being calculated} CALCULATED {Calculated} APPROVED {Approved} FOR_REVISION {For revision} COMPLETED {Completed} other {Unknown}}"
      values={{ status }}
    />
  );
}

export function FrequencyText({ frequency }: { frequency: ReportingFrequency }) {
  return (
    <FormattedMessage
      id="projects.detail.frequency"
      defaultMessage="{frequency, select, WEEKLY {Weekly} MONTHLY {Monthly} QUARTERLY {Quarterly} HALF_YEARLY {Every half year} other {—}}"
      values={{ frequency }}
    />
  );
}

/** The visible "waiting to send" mark of a project with unsent changes (or that the server refused one). */
export function ProjectUnsentMark({ state }: { state: OutboxStatus }) {
  const isStuck = state === 'conflict' || state === 'failed';
  return (
    <span className={`project-unsent${isStuck ? ' project-unsent--stuck' : ''}`} data-unsent={state}>
      {isStuck ? (
        <FormattedMessage id="projects.unsent.stuck" defaultMessage="Not sent: see Unsent" />
      ) : (
        <FormattedMessage id="projects.unsent.waiting" defaultMessage="Waiting to send" />
      )}
    </span>
  );
}

/** A photo on the server, fetched with the bearer token; the placeholder stays when it cannot load. */
export function ProjectPhoto({ imageLink, name }: { imageLink: string; name: string }) {
  return <AuthorizedPhoto imageLink={imageLink} name={name} loadImage={loadAuthorizedImage} className="project-photo" />;
}

/** "Saved on this device; it will be sent when the connection returns" or "Sent", for the result pages. */
export function SentState({ unsent }: { unsent: OutboxStatus | null }) {
  if (unsent === null) {
    return (
      <p className="project-result__state" data-state="sent">
        <FormattedMessage id="projects.result.sent" defaultMessage="The server has it." />
      </p>
    );
  }
  if (unsent === 'conflict' || unsent === 'failed') {
    return (
      <p className="project-result__state" data-state="stuck">
        <FormattedMessage id="projects.result.stuck" defaultMessage="The server did not take it: open Unsent to see why." />
      </p>
    );
  }
  return (
    <p className="project-result__state" data-state="waiting">
      <FormattedMessage id="projects.result.waiting" defaultMessage="Saved on this device; it will be sent when the connection returns." />
    </p>
  );
}
