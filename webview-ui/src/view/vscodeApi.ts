/** The webview side of the channel: typed posting and the persisted view state. */
import type { FromWebviewInput } from '../../../src/shared/chat/messages';

interface VsCodeApi {
  postMessage(message: unknown): void;
  getState(): unknown;
  setState(state: unknown): void;
}
declare function acquireVsCodeApi(): VsCodeApi;

export interface HostChannel {
  post(message: FromWebviewInput): void;
  getState(): unknown;
  setState(state: unknown): void;
}

/** Outside VS Code (a plain browser page for manual checks) messages go to the console instead. */
export function connectHost(): HostChannel {
  const api: VsCodeApi =
    typeof acquireVsCodeApi === 'function'
      ? acquireVsCodeApi()
      : { postMessage: (m) => console.debug('[webview → host]', m), getState: () => undefined, setState: () => undefined };
  return {
    post: (message) => api.postMessage(message),
    getState: () => api.getState(),
    setState: (state) => api.setState(state),
  };
}
