// The shared dialog host (spec sections 4, 8 and 9): alert, error, confirm and load (preloader).
// A dialog appears 350 ms after it is asked for (600 ms for the preloader, so quick work never
// flashes one); closing plays a 300 ms animation before it unmounts. While any dialog is open the
// body carries the class `dialog-open`; closing the last one removes it. Focus is kept inside the
// top dialog and goes back to the element that opened it. Escape closes every kind but the preloader.
import { useCallback, useEffect, useId, useMemo, useRef, useState, type ReactNode } from 'react';
import { createPortal } from 'react-dom';
import { FormattedMessage, useIntl } from 'react-intl';
import { DialogContext, type DialogApi } from './dialog-context';
import './dialog.css';

export const DIALOG_DELAY_MS = 350;
export const LOAD_DIALOG_DELAY_MS = 600;
export const DIALOG_CLOSE_MS = 300;
export const BODY_OPEN_CLASS = 'dialog-open';

type DialogKind = 'alert' | 'error' | 'confirm' | 'load';
type Phase = 'waiting' | 'open' | 'closing';

interface DialogEntry {
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

interface PendingDialog {
  phase: Phase;
  settle: (confirmed: boolean) => void;
  timer: ReturnType<typeof setTimeout> | undefined;
}

const FOCUSABLE = 'button:not([disabled]), [href], input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

export function DialogProvider({ children }: { children: ReactNode }) {
  const [entries, setEntries] = useState<DialogEntry[]>([]);
  const pending = useRef(new Map<number, PendingDialog>());
  const nextId = useRef(1);

  const setPhase = useCallback((id: number, phase: Phase) => {
    setEntries((current) => current.map((entry) => (entry.id === id ? { ...entry, phase } : entry)));
  }, []);

  const remove = useCallback((id: number) => {
    pending.current.delete(id);
    setEntries((current) => current.filter((entry) => entry.id !== id));
  }, []);

  const close = useCallback(
    (id: number, confirmed: boolean) => {
      const record = pending.current.get(id);
      if (!record || record.phase === 'closing') return;
      clearTimeout(record.timer);
      const wasShown = record.phase === 'open';
      record.phase = 'closing';
      record.settle(confirmed);
      if (wasShown) {
        setPhase(id, 'closing');
        record.timer = setTimeout(() => remove(id), DIALOG_CLOSE_MS);
      } else {
        // Closed before its delay ran out: it never shows, so there is nothing to animate.
        remove(id);
      }
    },
    [remove, setPhase],
  );

  const open = useCallback(
    (entry: Omit<DialogEntry, 'id' | 'phase' | 'opener'>, settle: (confirmed: boolean) => void): number => {
      const id = nextId.current++;
      const opener = document.activeElement instanceof HTMLElement && document.activeElement !== document.body ? document.activeElement : null;
      const delay = entry.kind === 'load' ? LOAD_DIALOG_DELAY_MS : DIALOG_DELAY_MS;
      const record: PendingDialog = { settle, phase: 'waiting', timer: undefined };
      record.timer = setTimeout(() => {
        record.phase = 'open';
        setPhase(id, 'open');
      }, delay);
      pending.current.set(id, record);
      setEntries((current) => [...current, { ...entry, id, phase: 'waiting', opener }]);
      return id;
    },
    [setPhase],
  );

  useEffect(() => {
    const timers = pending.current;
    return () => {
      for (const record of timers.values()) clearTimeout(record.timer);
    };
  }, []);

  const isAnyOpen = entries.some((entry) => entry.phase === 'open');
  useEffect(() => {
    document.body.classList.toggle(BODY_OPEN_CLASS, isAnyOpen);
  }, [isAnyOpen]);
  useEffect(() => () => document.body.classList.remove(BODY_OPEN_CLASS), []);

  const api = useMemo<DialogApi>(
    () => ({
      alert: ({ title, content, okText }) =>
        new Promise<void>((resolve) => {
          open({ kind: 'alert', title, content, okText }, () => resolve());
        }),
      error: ({ title, content, okText } = {}) =>
        new Promise<void>((resolve) => {
          open({ kind: 'error', title, content, okText }, () => resolve());
        }),
      confirm: ({ title, content, confirmText, closeText }) =>
        new Promise<boolean>((resolve) => {
          open({ kind: 'confirm', title, content, confirmText, closeText }, resolve);
        }),
      load: () => {
        const id = open({ kind: 'load' }, () => undefined);
        return () => close(id, false);
      },
    }),
    [open, close],
  );

  const visible = entries.filter((entry) => entry.phase !== 'waiting');
  const topId = [...visible].reverse().find((entry) => entry.phase === 'open')?.id;

  return (
    <DialogContext.Provider value={api}>
      {children}
      {visible.length > 0 &&
        createPortal(
          visible.map((entry) => (
            <DialogView key={entry.id} entry={entry} isTop={entry.id === topId} onClose={(confirmed) => close(entry.id, confirmed)} />
          )),
          document.body,
        )}
    </DialogContext.Provider>
  );
}

function DialogView({ entry, isTop, onClose }: { entry: DialogEntry; isTop: boolean; onClose: (confirmed: boolean) => void }) {
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
