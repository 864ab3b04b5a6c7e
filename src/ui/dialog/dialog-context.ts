import { createContext, useContext, type ReactNode } from 'react';

export interface DialogApi {
  /** Resolves when the user closes the dialog. */
  alert(options: { title?: string; content: ReactNode; okText?: string }): Promise<void>;
  /** Defaults: title 'Error', content 'Unknown error', button 'OK' (localized). */
  error(options?: { title?: string; content?: ReactNode; okText?: string }): Promise<void>;
  /** Resolves true for the confirm button, false for Close or Escape. Defaults 'Отправить' / 'Закрыть'. */
  confirm(options: { title?: string; content: ReactNode; confirmText?: string; closeText?: string }): Promise<boolean>;
  /** Shows the preloader (after 600 ms) and returns the function that closes it. */
  load(): () => void;
}

export const DialogContext = createContext<DialogApi | null>(null);

export function useDialog(): DialogApi {
  const api = useContext(DialogContext);
  if (!api) throw new Error('useDialog() needs a <DialogProvider> above it');
  return api;
}
