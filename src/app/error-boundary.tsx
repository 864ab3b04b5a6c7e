import { Component, type ErrorInfo, type ReactNode } from 'react';
import { CaughtErrorContext } from '../ui/caught-error';

interface Props {
  fallback: ReactNode;
  children: ReactNode;
}

interface State {
  hasError: boolean;
  error: unknown;
}

/**
 * Shows `fallback` (the error screen) instead of a subtree that threw while rendering, with the error it
 * caught in `CaughtErrorContext`, so the screen can tell a lost connection from a bug.
 */
export class ErrorBoundary extends Component<Props, State> {
  override state: State = { hasError: false, error: undefined };

  static getDerivedStateFromError(error: unknown): State {
    return { hasError: true, error };
  }

  override componentDidCatch(error: unknown, info: ErrorInfo): void {
    console.error('A screen failed to render', error, info.componentStack);
  }

  override render(): ReactNode {
    if (!this.state.hasError) return this.props.children;
    return <CaughtErrorContext.Provider value={this.state.error}>{this.props.fallback}</CaughtErrorContext.Provider>;
  }
}
