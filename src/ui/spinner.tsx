import { useIntl } from 'react-intl';
import './spinner.css';

/** A turning ring. Announces "Loading" to screen readers unless `decorative`. */
export function Spinner({ size = 'normal', decorative = false }: { size?: 'normal' | 'small'; decorative?: boolean }) {
  const intl = useIntl();
  const className = size === 'small' ? 'spinner spinner--small' : 'spinner';
  if (decorative) return <span className={className} aria-hidden="true" />;
  return (
    <span
      className={className}
      role="status"
      aria-label={intl.formatMessage({ id: 'common.loading', defaultMessage: 'Loading…' })}
    />
  );
}

/** A spinner centred in the free height of the page (below the header, or the whole screen). */
export function PageSpinner({ fullHeight = false }: { fullHeight?: boolean }) {
  return (
    <div className={fullHeight ? 'spinner-page spinner-page--full' : 'spinner-page'} data-loading="page">
      <Spinner />
    </div>
  );
}
