// The messages the page shows: one language, merged from the catalogue areas loaded so far
// (src/lib/catalogue-areas.ts). Used by the intl provider (src/lib/intl.tsx).
// Guarantees:
// - `require(areas)` resolves only once the shown messages hold those areas, in the language the user
//   chose last (`target`), together with every area required before; so a screen waiting on it never
//   renders before its messages are there.
// - A language switch keeps the old messages shown until every area already in use has loaded in the
//   new language, then swaps them at once (no mix of languages, no flash of English defaults).
// - Each area of each language is downloaded once. A failed download (offline with an uncached chunk)
//   is logged and counts as an empty area: the English default messages in the code are shown, and the
//   next switch to that language tries again.
import type { MessageFormatElement } from 'react-intl';
import { CATALOGUE_AREAS, type CatalogueArea } from './catalogue-areas';
import type { AppLocale } from './locale-store';

/** Message texts (as run in the tests), or their compiled syntax trees (as built: no parser on the page). */
export type Messages = Record<string, string> | Record<string, MessageFormatElement[]>;
export type AreaLoaders = Record<AppLocale, Record<CatalogueArea, () => Promise<{ default: Messages }>>>;

export interface ShownMessages {
  locale: AppLocale;
  areas: ReadonlySet<CatalogueArea>;
  messages: Messages;
}

export interface CatalogueState {
  /** The language the user chose; the shown messages follow once its areas have loaded. */
  target: AppLocale;
  /** Null until the first areas have loaded. */
  shown: ShownMessages | null;
}

export function covers(shown: ShownMessages | null, areas: readonly CatalogueArea[]): boolean {
  return shown !== null && areas.every((area) => shown.areas.has(area));
}

export class CatalogueStore {
  private state: CatalogueState;
  private readonly wanted = new Set<CatalogueArea>();
  private readonly downloads = new Map<string, Promise<Messages>>();
  private readonly listeners = new Set<() => void>();
  /** The one running settle loop; cleared in the same step that publishes its result. */
  private settling: Promise<void> | null = null;

  constructor(
    private readonly loaders: AreaLoaders,
    locale: AppLocale,
  ) {
    this.state = { target: locale, shown: null };
  }

  readonly subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  readonly getSnapshot = (): CatalogueState => this.state;

  /**
   * Adds `areas` to the shown messages. Answers the same promise while one load is under way, so React's
   * `use()` can wait on it across renders; resolves at once when they are shown already.
   */
  require(areas: readonly CatalogueArea[]): Promise<void> {
    for (const area of areas) this.wanted.add(area);
    const { shown, target } = this.state;
    if (this.settling === null && shown?.locale === target && covers(shown, [...this.wanted])) return Promise.resolve();
    return this.settle();
  }

  /** Switches to `locale` once every area in use has loaded in it. */
  setLocale(locale: AppLocale): Promise<void> {
    if (locale === this.state.target && this.settling === null) return Promise.resolve();
    this.publish({ ...this.state, target: locale });
    return this.settle();
  }

  private settle(): Promise<void> {
    this.settling ??= this.run();
    return this.settling;
  }

  private async run(): Promise<void> {
    // Loops until a round saw no change of language or areas while it downloaded.
    for (;;) {
      const locale = this.state.target;
      const areas = CATALOGUE_AREAS.filter((area) => this.wanted.has(area));
      const parts = await Promise.all(areas.map((area) => this.download(locale, area)));
      if (locale !== this.state.target || areas.length !== this.wanted.size) continue;
      this.settling = null;
      // The areas of one build are all of one form (texts or trees), so the merge is too.
      this.publish({ target: locale, shown: { locale, areas: new Set(areas), messages: Object.assign({}, ...parts) as Messages } });
      return;
    }
  }

  private download(locale: AppLocale, area: CatalogueArea): Promise<Messages> {
    const key = `${locale}:${area}`;
    let download = this.downloads.get(key);
    if (!download) {
      download = this.loaders[locale][area]().then(
        (module) => module.default,
        (error: unknown) => {
          // Offline with an uncached chunk: the English default messages in the code still read well.
          console.error(`Could not load the ${locale} messages of the ${area} area`, error);
          this.downloads.delete(key);
          return {};
        },
      );
      this.downloads.set(key, download);
    }
    return download;
  }

  private publish(state: CatalogueState): void {
    this.state = state;
    for (const listener of this.listeners) listener();
  }
}
