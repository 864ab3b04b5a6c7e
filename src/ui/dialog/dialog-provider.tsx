// The shared dialog host (spec sections 4, 8 and 9): alert, error, confirm and load (preloader).
// A dialog appears 350 ms after it is asked for (600 ms for the preloader, so quick work never
// flashes one); closing plays a 300 ms animation before it unmounts. While any dialog is open the
// body carries the class `dialog-open`; closing the last one removes it. Focus is kept inside the
// top dialog and goes back to the element that opened it. Escape closes every kind but the preloader.
// The dialog itself (dialog-view.tsx) is fetched when one is first asked for, within that delay; should it not
// load, a confirmation answers "no" (nothing is done) and the others close, and the console says why.
import { useCallback, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { createPortal } from 'react-dom';
import { lazyModule, useLazyModule } from '../lazy-module';
import { DialogContext, type DialogApi } from './dialog-context';
import type { DialogEntry, Phase } from './dialog-view';

export const DIALOG_DELAY_MS = 350;
export const LOAD_DIALOG_DELAY_MS = 600;
export const DIALOG_CLOSE_MS = 300;
export const BODY_OPEN_CLASS = 'dialog-open';

interface PendingDialog {
  phase: Phase;
  settle: (confirmed: boolean) => void;
  timer: ReturnType<typeof setTimeout> | undefined;
}

const dialogView = lazyModule(() => import('./dialog-view'));
// In development and in the tests the dialog loads with this module, so it shows on its delay there as in a build
// that has fetched it. A failure is the provider's to meet when a dialog is asked for (dialog-loading.test.tsx).
if (!import.meta.env.PROD) await dialogView.load().catch(() => undefined);

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

  const { value: view } = useLazyModule(dialogView, entries.length > 0, 'The dialog');
  // Without the dialog's code, what was asked for is answered as if it were dismissed: nothing is done.
  useEffect(() => {
    if (view !== 'failed') return;
    for (const entry of entries) close(entry.id, false);
  }, [view, entries, close]);

  const visible = entries.filter((entry) => entry.phase !== 'waiting');
  const topId = [...visible].reverse().find((entry) => entry.phase === 'open')?.id;
  const View = view !== null && view !== 'failed' ? view.DialogView : null;

  return (
    <DialogContext.Provider value={api}>
      {children}
      {visible.length > 0 &&
        View !== null &&
        createPortal(
          visible.map((entry) => <View key={entry.id} entry={entry} isTop={entry.id === topId} onClose={(confirmed) => close(entry.id, confirmed)} />),
          document.body,
        )}
    </DialogContext.Provider>
  );
}
