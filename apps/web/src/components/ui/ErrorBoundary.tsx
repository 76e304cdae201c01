import { Component, type ReactNode } from 'react';

/** Shows `fallback` instead of its children once they throw (e.g. a chunk that could not be downloaded). */
export class ErrorBoundary extends Component<
  { fallback: ReactNode; children: ReactNode },
  { failed: boolean }
> {
  override state = { failed: false };

  static getDerivedStateFromError() {
    return { failed: true };
  }

  override render() {
    return this.state.failed ? this.props.fallback : this.props.children;
  }
}
