/**
 * The panel's state and what it tells the host: the model (the draft with its revision,
 * and what the host sent: specialists, settings, state, evidence, estimate), the webview
 * state that keeps the draft while the view is hidden, moved or reloaded, and the
 * debounced `draftChanged` messages.
 */
import { emptyDraft, parseSavedDraft, type Draft } from '../src/core/panel/draft';
import { markEdited } from '../src/core/panel/prefill';
import { parseSavedSession } from '../src/core/panel/savedState';
import type {
  EstimateNotification,
  EvidenceView,
  ModelDraftNotification,
  PanelState,
  SessionDraft,
  SpecialistView,
  WebviewToHost,
} from '../src/core/panel/protocol';

const vscode = acquireVsCodeApi();

/** How long after the last keystroke the draft goes to the host, in milliseconds. */
const SEND_DEBOUNCE_MS = 200;

/** Everything the panel shows, in one place. */
export interface Model {
  draft: Draft;
  /** Edits so far (see RevisedDraftSchema): the newer of the webview's and the host's draft wins. */
  revision: number;
  specialists: SpecialistView[];
  settings: { maxContextTokens: number; tokenizer: string; maxHandoverDepth: number; includeRecentTurns: number };
  state: PanelState;
  evidence: EvidenceView | null;
  evidenceError: string | null;
  loading: boolean;
  estimate: EstimateNotification | null;
  busy: boolean;
  /** The session's draft last applied: the drafted items' sources and the loss report. */
  session: SessionDraft | null;
  /** The language-model draft's last state ("Draft with …"), or null before the host said anything. */
  modelDraft: ModelDraftNotification | null;
  /** Whether the host will send the session's draft when the evidence is in (not after a handoff: the new draft starts empty). */
  draftExpected: boolean;
}

// What this view saved before it was hidden, moved or reloaded (validated: it may be from an older version).
const state = vscode.getState();
const saved = parseSavedDraft(state);

/** The panel's model; until the host's `init` arrives, the saved draft and default settings. */
export const model: Model = {
  draft: saved?.draft ?? emptyDraft(),
  revision: saved?.revision ?? 0,
  specialists: [],
  settings: { maxContextTokens: 3000, tokenizer: 'o200k_base', maxHandoverDepth: 3, includeRecentTurns: 5 },
  state: { hasFolder: true, trusted: true, handoffCount: 0 },
  evidence: null,
  evidenceError: null,
  loading: false,
  estimate: null,
  busy: false,
  session: parseSavedSession(state) ?? null,
  modelDraft: null,
  draftExpected: true,
};

let sendTimer: ReturnType<typeof setTimeout> | undefined;

/** Posts a message to the host. */
export function send(message: WebviewToHost): void {
  vscode.postMessage(message);
}

/** Keeps the draft in the webview state now, and sends it to the host shortly. */
function changed(): void {
  model.revision += 1;
  save();
  if (sendTimer) clearTimeout(sendTimer);
  sendTimer = setTimeout(flush, SEND_DEBOUNCE_MS);
}

/** Keeps the draft and its revision in the webview state. */
export function save(): void {
  vscode.setState({ draft: model.draft, revision: model.revision, session: model.session });
}

/** Sends the pending draft to the host now. */
export function flush(): void {
  if (sendTimer) clearTimeout(sendTimer);
  sendTimer = undefined;
  send({ type: 'draftChanged', draft: model.draft, revision: model.revision });
}

/** Whether an edit is still waiting for the send debounce. */
export function hasPendingDraft(): boolean {
  return sendTimer !== undefined;
}

/** Drops the pending `draftChanged` (a request that carries the draft goes instead). */
export function cancelPendingDraft(): void {
  if (sendTimer) clearTimeout(sendTimer);
  sendTimer = undefined;
}

/**
 * Applies an edit of the user to the draft: a new revision, saved now, sent after the
 * debounce. A drafted field it changes is the user's from now on (its "Drafted" mark goes).
 */
export function update(patch: Partial<Draft>): void {
  model.draft = markEdited({ ...model.draft, ...patch }, Object.keys(patch));
  changed();
}

/** Replaces the draft by one the host's session draft filled (not an edit of the user's): a new revision, saved and sent. */
export function replaceDraft(draft: Draft, session: SessionDraft): void {
  model.draft = draft;
  model.session = session;
  changed();
}

/** The specialist with this id, as the host listed it (undefined when unknown). */
export function specialistById(id: string): SpecialistView | undefined {
  return model.specialists.find((s) => s.id === id);
}
