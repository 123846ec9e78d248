import { MessageBar, MessageBarBody } from '@fluentui/react-components';
import { Component, type ErrorInfo, type ReactNode } from 'react';

type Props = { readonly children: ReactNode; readonly onError: (error: unknown, info: ErrorInfo) => void; readonly resetKey: unknown };
type State = { readonly failed: boolean; readonly resetKey: unknown };

/**
 * Keeps a renderer's crash (a chart library throwing on odd data) inside the visualisation's box:
 * the rest of the page stays usable and the error is reported. A new dataset or mode resets it.
 */
export class RendererBoundary extends Component<Props, State> {
  override state: State = { failed: false, resetKey: this.props.resetKey };

  static getDerivedStateFromError(): Partial<State> {
    return { failed: true };
  }

  static getDerivedStateFromProps(props: Props, state: State): Partial<State> | null {
    return Object.is(props.resetKey, state.resetKey) ? null : { failed: false, resetKey: props.resetKey };
  }

  override componentDidCatch(error: unknown, info: ErrorInfo): void {
    this.props.onError(error, info);
  }

  override render(): ReactNode {
    if (!this.state.failed) return this.props.children;
    return (
      <MessageBar intent="error">
        <MessageBarBody>This visualisation could not be drawn.</MessageBarBody>
      </MessageBar>
    );
  }
}
