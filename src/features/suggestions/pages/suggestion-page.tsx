import { FormattedDate, FormattedMessage, FormattedNumber } from 'react-intl';
import { Link, useParams } from 'wouter';
import { paths } from '../../../domain/paths';
import { PageSpinner } from '../../../ui/spinner';
import { DevicePhoto, ServerPhoto } from '../components/photo';
import { StatusText } from '../components/status-text';
import { UnsentMark } from '../components/unsent-mark';
import { useDepartments, useSuggestion } from '../hooks';
import '../suggestions.css';

export default function SuggestionPage() {
  const { companyId = '', suggestionId = '' } = useParams<{ companyId: string; suggestionId: string }>();
  const view = useSuggestion(companyId, suggestionId);
  const departments = useDepartments(companyId);
  if (view === undefined || departments === undefined) return <PageSpinner />;

  const back = (
    <p className="suggestions-page__back">
      <Link href={paths.company.mySuggestions(companyId)}>
        <FormattedMessage id="suggestions.backToMine" defaultMessage="My proposals" />
      </Link>
    </p>
  );
  if (view === null) {
    return (
      <section className="suggestions-page">
        {back}
        <h1 className="suggestions-page__title">
          <FormattedMessage id="suggestions.view.missing" defaultMessage="This proposal is not on this device" />
        </h1>
        <p>
          <FormattedMessage id="suggestions.view.missingText" defaultMessage="It may not have been loaded yet: connect to the network and open it again." />
        </p>
      </section>
    );
  }

  const { suggestion, unsent, localPhotos } = view;
  const department = departments.find((item) => item.id === suggestion.departmentId)?.title;
  return (
    <article className="suggestions-page" aria-labelledby="suggestion-title" data-unsent={unsent ?? undefined}>
      {back}
      <h1 className="suggestions-page__title" id="suggestion-title">
        {suggestion.title}
      </h1>
      {unsent && <UnsentMark state={unsent} />}
      <p className="suggestion-list__meta">
        <span>
          <FormattedDate value={suggestion.submittedAt} dateStyle="medium" timeStyle="short" />
        </span>
        <span>
          <StatusText status={suggestion.status} />
        </span>
      </p>
      <dl className="suggestion-view">
        <dt>
          <FormattedMessage id="suggestions.form.department" defaultMessage="Department" />
        </dt>
        <dd>{department ?? <FormattedMessage id="suggestions.view.unknownDepartment" defaultMessage="Not on this device yet" />}</dd>
        <dt>
          <FormattedMessage id="suggestions.form.problem" defaultMessage="Problem" />
        </dt>
        <dd>{suggestion.problem}</dd>
        <dt>
          <FormattedMessage id="suggestions.form.solution" defaultMessage="Proposed solution" />
        </dt>
        <dd>{suggestion.solution}</dd>
        <dt>
          <FormattedMessage id="suggestions.form.expectedEffect" defaultMessage="Expected effect" />
        </dt>
        <dd>{suggestion.expectedEffect}</dd>
        {suggestion.effectEstimate && (
          <>
            <dt>
              <FormattedMessage id="suggestions.view.estimate" defaultMessage="Estimated effect" />
            </dt>
            <dd>
              <FormattedNumber value={suggestion.effectEstimate.amountMinor / 100} style="currency" currency={suggestion.effectEstimate.currency} />
            </dd>
          </>
        )}
        {suggestion.reviewComment && (
          <>
            <dt>
              <FormattedMessage id="suggestions.view.reviewComment" defaultMessage="Reviewer's comment" />
            </dt>
            <dd>{suggestion.reviewComment}</dd>
          </>
        )}
      </dl>
      {(suggestion.images.length > 0 || localPhotos.length > 0) && (
        <h2 className="suggestions-page__subtitle">
          <FormattedMessage id="suggestions.form.photos" defaultMessage="Photos" />
        </h2>
      )}
      {(suggestion.images.length > 0 || localPhotos.length > 0) && (
        <div className="suggestion-photos">
          {suggestion.images.map((image) => (
            <ServerPhoto key={image.imageId} imageLink={image.imageLink} name={image.name} />
          ))}
          {suggestion.images.length === 0 && localPhotos.map((photo) => <DevicePhoto key={photo.id} data={photo.data} type={photo.type} name={photo.name} />)}
        </div>
      )}
    </article>
  );
}
