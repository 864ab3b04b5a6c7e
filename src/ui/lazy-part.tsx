// A part of a page that most visits never show (the dashboard's setup checklist of a company still getting ready
// and the financial director's EBITDA form, the project lead's indicator report form) is a chunk of its own,
// fetched when the part is first rendered, so the page carries only what its first view needs. Until it arrives
// the part's placeholder stands in its place (its title and a spinner, roughly its size); a failed fetch says so in
// place, and "Try again" fetches again. The service worker precaches every chunk, so offline the part comes from
// the device like the page.
import type { ComponentType, ReactNode } from 'react';
import { FormattedMessage } from 'react-intl';
import { Button } from './button';
import { lazyModule, useLazyModule } from './lazy-module';
import './lazy-part.css';

export interface LazyPart<P extends object> {
  (props: P): ReactNode;
  /** Fetches the part's chunk (once; a failure may be tried again). */
  preload: () => Promise<ComponentType<P>>;
}

/**
 * A component that renders `load()`'s component once it is there, `Placeholder` (given the same props) while it
 * is on its way, and a notice with "Try again" when it could not be fetched.
 */
export function lazyPart<P extends object>(load: () => Promise<ComponentType<P>>, Placeholder: ComponentType<P>): LazyPart<P> {
  const part = lazyModule(load);

  function Part(props: P) {
    const { value: loaded, retry } = useLazyModule(part, true, 'A part of the page');
    if (loaded === 'failed') return <PartLoadFailed onRetry={retry} />;
    if (loaded === null) return <Placeholder {...props} />;
    const Loaded = loaded;
    return <Loaded {...props} />;
  }
  Part.preload = () => part.load();
  return Part;
}

function PartLoadFailed({ onRetry }: { onRetry: () => void }) {
  return (
    <div className="lazy-part-failed" data-part-failed="">
      <p role="alert">
        <FormattedMessage id="ui.part.loadFailed" defaultMessage="This part of the page could not be loaded. Check the connection and try again." />
      </p>
      <Button variant="secondary" onClick={onRetry}>
        <FormattedMessage id="ui.part.retry" defaultMessage="Try again" />
      </Button>
    </div>
  );
}
