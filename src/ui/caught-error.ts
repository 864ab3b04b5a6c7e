import { createContext } from 'react';

/**
 * The error an error boundary caught, for the fallback screen under it to word its cause (`brokenReasonOf`):
 * a boundary takes its fallback as a ready element, so the error reaches it this way rather than as a prop.
 */
export const CaughtErrorContext = createContext<unknown>(undefined);
