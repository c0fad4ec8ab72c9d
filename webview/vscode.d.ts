/** The API VS Code injects into webviews (`acquireVsCodeApi`). */
interface VsCodeWebviewApi {
  postMessage(message: unknown): void;
  getState(): unknown;
  setState(state: unknown): void;
}
declare function acquireVsCodeApi(): VsCodeWebviewApi;
