// What a dialog looks like once it shows (dialog-provider.tsx keeps the stack, the timing and the API): its panel,
// focus kept inside the top one and given back on close, Escape. A chunk of its own, fetched when a dialog is first
// asked for: a dialog shows DIALOG_DELAY_MS after it is asked for anyway, and most visits never ask for one.
import { useEffect, useId, useRef, type ReactNode } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import './dialog.css';

export type DialogKind = 'alert' | 'error' | 'confirm' | 'load';
export type Phase = 'waiting' | 'open' | 'closing';

export interface DialogEntry {
  id: number;
  kind: DialogKind;
  title?: ReactNode;
  content?: ReactNode;
  okText?: string;
  confirmText?: string;
  closeText?: string;
  phase: Phase;
  /** The element focused when the dialog was asked for; focus goes back to it on close. */
  opener: HTMLElement | null;
}


const FOCUSABLE = 'button:not([disabled]), [href], input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

export function DialogView({ entry, isTop, onClose }: { entry: DialogEntry; isTop: boolean; onClose: (confirmed: boolean) => void }) {
  const intl = useIntl();
  const titleId = useId();
  const contentId = useId();
  const panel = useRef<HTMLDivElement>(null);
  const { kind } = entry;

  const title =
    entry.title ?? (kind === 'error' ? intl.formatMessage({ id: 'dialog.error.title', defaultMessage: 'Error' }) : undefined);
  const content =
    entry.content ??
    (kind === 'error' ? intl.formatMessage({ id: 'dialog.error.content', defaultMessage: 'Unknown error' }) : undefined);
  const hasTitle = title !== undefined && title !== null && title !== '';

  // Focus moves into the dialog when it appears.
  useEffect(() => {
    const node = panel.current;
    if (!node) return;
    const first = node.querySelector<HTMLElement>(FOCUSABLE);
    (first ?? node).focus();
  }, []);

  // Only the top dialog keeps focus and hears Escape.
  useEffect(() => {
    if (!isTop) return;
    const node = panel.current;
    if (!node) return;
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key === 'Escape') {
        if (kind === 'load') return;
        event.preventDefault();
        onClose(false);
        return;
      }
      if (event.key !== 'Tab') return;
      const focusables = [...node.querySelectorAll<HTMLElement>(FOCUSABLE)];
      const first = focusables[0];
      const last = focusables[focusables.length - 1];
      if (!first || !last) {
        event.preventDefault();
        node.focus();
        return;
      }
      const active = document.activeElement;
      if (event.shiftKey && (active === first || !node.contains(active))) {
        event.preventDefault();
        last.focus();
      } else if (!event.shiftKey && (active === last || !node.contains(active))) {
        event.preventDefault();
        first.focus();
      }
    };
    const onFocusIn = (event: FocusEvent) => {
      if (event.target instanceof Node && !node.contains(event.target)) {
        (node.querySelector<HTMLElement>(FOCUSABLE) ?? node).focus();
      }
    };
    document.addEventListener('keydown', onKeyDown);
    document.addEventListener('focusin', onFocusIn);
    return () => {
      document.removeEventListener('keydown', onKeyDown);
      document.removeEventListener('focusin', onFocusIn);
    };
  }, [isTop, kind, onClose]);

  const isClosing = entry.phase === 'closing';
  // Runs after the focus trap above has been released (this dialog is no longer the top one).
  useEffect(() => {
    if (isClosing && entry.opener?.isConnected) entry.opener.focus();
  }, [isClosing, entry.opener]);

  const labelProps =
    kind === 'load'
      ? { 'aria-label': intl.formatMessage({ id: 'dialog.loading', defaultMessage: 'Please wait…' }) }
      : hasTitle
        ? { 'aria-labelledby': titleId }
        : { 'aria-labelledby': contentId };

  return (
    <div className={`dialog-backdrop${isClosing ? ' dialog-backdrop--closing' : ''}`} data-dialog-phase={entry.phase}>
      <div
        ref={panel}
        className={`dialog dialog--${kind}${isClosing ? ' dialog--closing' : ''}`}
        role="dialog"
        aria-modal="true"
        aria-busy={kind === 'load' || undefined}
        aria-describedby={kind !== 'load' && hasTitle ? contentId : undefined}
        data-dialog={kind}
        tabIndex={-1}
        {...labelProps}
      >
        {kind === 'load' ? (
          <span className="dialog__spinner" aria-hidden="true" />
        ) : (
          <>
            {hasTitle && (
              <h2 id={titleId} className="dialog__title">
                {title}
              </h2>
            )}
            <div id={contentId} className="dialog__content">
              {content}
            </div>
            <div className="dialog__actions">
              {kind === 'confirm' ? (
                <>
                  <button type="button" className="dialog__button dialog__button--secondary" data-action="dialog-close" onClick={() => onClose(false)}>
                    {entry.closeText ?? <FormattedMessage id="dialog.confirm.close" defaultMessage="Close" />}
                  </button>
                  <button type="button" className="dialog__button" data-action="dialog-confirm" onClick={() => onClose(true)}>
                    {entry.confirmText ?? <FormattedMessage id="dialog.confirm.confirm" defaultMessage="Send" />}
                  </button>
                </>
              ) : (
                <button type="button" className="dialog__button" data-action="dialog-ok" onClick={() => onClose(true)}>
                  {entry.okText ?? <FormattedMessage id="dialog.ok" defaultMessage="OK" />}
                </button>
              )}
            </div>
          </>
        )}
      </div>
    </div>
  );
}
