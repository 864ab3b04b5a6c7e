// The dashboard's parts that only some visits show, each a chunk of its own (src/ui/lazy-part.tsx): the setup checklist
// (a company still getting ready) and the financial director's EBITDA form. Their placeholders carry the part's
// title and hold roughly its height, so the page does not jump when the part arrives.
import { FormattedMessage } from 'react-intl';
import { Spinner } from '../../../ui/spinner';
import type { SetupChecklist as Checklist } from '../hooks';
import type { EbitdaFormProps } from './ebitda-form';
import { lazyPart } from '../../../ui/lazy-part';
import './lazy-part.css';

function SetupChecklistPlaceholder({ checklist }: { checklist: Checklist }) {
  return (
    <section className="dashboard__card setup dashboard-part-placeholder dashboard-part-placeholder--setup" aria-labelledby="setup-title" aria-busy="true" data-part-loading="setup-checklist">
      <h2 className="dashboard__card-title" id="setup-title">
        <FormattedMessage id="dashboard.setup.title" defaultMessage="Getting {company} ready" values={{ company: checklist.company.name }} />
      </h2>
      <Spinner />
    </section>
  );
}

function EbitdaFormPlaceholder(_props: EbitdaFormProps) {
  return (
    <section className="dashboard-section ebitda dashboard-part-placeholder dashboard-part-placeholder--ebitda" aria-labelledby="dashboard-ebitda-title" aria-busy="true" data-part-loading="ebitda">
      <h2 className="dashboard-section__title" id="dashboard-ebitda-title">
        <FormattedMessage id="dashboard.ebitda.title" defaultMessage="EBITDA by month" />
      </h2>
      <Spinner />
    </section>
  );
}

export const SetupChecklistPart = lazyPart(() => import('./setup-checklist').then((module) => module.SetupChecklist), SetupChecklistPlaceholder);

export const EbitdaFormPart = lazyPart(() => import('./ebitda-form').then((module) => module.EbitdaForm), EbitdaFormPlaceholder);

// In development and in the tests (the Vite dev server, Vitest) the parts load with this module, so the page
// renders them at once there; the build fetches each when it is first shown (lazy-part.test.tsx covers the
// waiting and the failure).
if (!import.meta.env.PROD) await Promise.all([SetupChecklistPart.preload(), EbitdaFormPart.preload()]);
