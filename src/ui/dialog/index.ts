// The dialog kit of spec section 8: one host, four kinds (alert, error, confirm, load).
export { useDialog, type DialogApi } from './dialog-context';
export { DialogProvider, DIALOG_DELAY_MS, LOAD_DIALOG_DELAY_MS, DIALOG_CLOSE_MS, BODY_OPEN_CLASS } from './dialog-provider';
