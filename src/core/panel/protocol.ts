/**
 * The typed protocol between the "Hand over" webview and the extension host. Every
 * message crossing the boundary is validated with these schemas on arrival: the host
 * never trusts what the webview sends, and the webview checks what it receives
 * (docs/ARCHITECTURE.md, "The webview layer"). They are zod/mini schemas, so the webview bundle
 * carries zod's mini build without its locales (docs/ARCHITECTURE.md, the webview layer).
 *
 * - Webview → host **commands** (fire and forget): `ready` (the handshake: the host holds
 *   its posts until it arrives), `draftChanged`, `refreshEvidence`, `runCommand`,
 *   `redraft` (collect the evidence again and draft from it), `draftWithModel` /
 *   `cancelModelDraft` (the language-model draft: sent only on the user's click), and
 *   `verify` (run "Handoff: Verify" on the latest handoff; the host asks consent).
 * - Webview → host **requests**, answered by a `response` with the same `id`:
 *   `preview` and `handOver`.
 * - Host → webview **notifications**: `init`, `state`, `evidence`, `estimate`,
 *   `handedOver`, `banner`, `draft` (the session's draft), `modelDraft` (the
 *   language-model draft's progress and result), and the `response`s.
 *
 * Kept free of the registry, YAML and the full zod so the webview bundle stays small.
 */
import * as z from 'zod/mini';
import { en } from 'zod/locales';
import { DraftSchema } from './draft';
import { CommitSchema, DroppedSchema, HopGuardSchema, TestRunSchema, TouchedFileSchema, TurnSchema } from '../handoff/fields';
import { DraftedFieldSchema, DraftSchema as SessionDraftSchema, LeftOutSchema } from '../handoff/draftFields';

export type { Draft as SessionDraft, DraftedField, LeftOut, Provenance } from '../handoff/draftFields';
import type { SpecialistSource } from '../specialists/registry';

/** A count or sequence number: an integer ≥ 0. */
const natural = () => z.number().check(z.int(), z.nonnegative());
/** A budget or limit: an integer ≥ 1. */
const positive = () => z.number().check(z.int(), z.positive());

// ---------------------------------------------------------------- webview → host

/** The webview script has loaded and can receive messages. */
export const ReadyMessageSchema = z.strictObject({ type: z.literal('ready') });

/** The user changed the draft (debounced by the webview); `revision` counts the edits (see RevisedDraftSchema). */
export const DraftChangedMessageSchema = z.strictObject({ type: z.literal('draftChanged'), draft: DraftSchema, revision: natural() });

/** Collect the evidence again (git and session log). */
export const RefreshEvidenceMessageSchema = z.strictObject({ type: z.literal('refreshEvidence') });

/**
 * "Redraft": collect the evidence again and send a new `draft`. The webview
 * re-fills the fields still as drafted and the empty ones, and asks before replacing edited ones.
 */
export const RedraftMessageSchema = z.strictObject({ type: z.literal('redraft') });

/** "Draft with …": ask the editor's language model for a draft. Only ever sent on the user's click. */
export const DraftWithModelMessageSchema = z.strictObject({ type: z.literal('draftWithModel') });

/** Cancel the language-model draft under way. */
export const CancelModelDraftMessageSchema = z.strictObject({ type: z.literal('cancelModelDraft') });

/**
 * "Verify…" beside the latest handoff: run "Handoff: Verify" on the handoff of
 * that id (the `latest` of the evidence). The host asks the user's consent before any
 * recorded command re-runs; the webview never runs anything.
 */
export const VerifyMessageSchema = z.strictObject({ type: z.literal('verify'), handoff: z.string().check(z.minLength(1), z.maxLength(300)) });

/** Commands the panel may ask the host to run: only these. */
export const PanelCommandSchema = z.enum(['endSession', 'manageTrust', 'openFolder', 'openSettings', 'openHandoffFolder', 'initRepository', 'openGitSettings', 'copyPrompt', 'openInChat']);
/**
 * Run one of the commands the panel offers; `handoff` (the id a `handedOver` named) makes the
 * receiving commands act on that handoff, not on whichever is newest by then. The host acts
 * only on handoffs this panel wrote.
 */
export const RunCommandMessageSchema = z.strictObject({ type: z.literal('runCommand'), command: PanelCommandSchema, handoff: z.optional(z.string().check(z.minLength(1), z.maxLength(300))) });

/** Open the handoff this draft would write, rendered, in a preview editor. */
export const PreviewRequestSchema = z.strictObject({ type: z.literal('request'), id: natural(), method: z.literal('preview'), draft: DraftSchema, revision: natural() });
/** Write the handoff. */
export const HandOverRequestSchema = z.strictObject({ type: z.literal('request'), id: natural(), method: z.literal('handOver'), draft: DraftSchema, revision: natural() });

/** A request, told apart by its `method`. */
export const RequestMessageSchema = z.discriminatedUnion('method', [PreviewRequestSchema, HandOverRequestSchema]);

/** Every message the webview may send, told apart by `type` (so a refusal names the field at fault). */
export const WebviewToHostSchema = z.discriminatedUnion('type', [
  ReadyMessageSchema,
  DraftChangedMessageSchema,
  RefreshEvidenceMessageSchema,
  RunCommandMessageSchema,
  RedraftMessageSchema,
  DraftWithModelMessageSchema,
  CancelModelDraftMessageSchema,
  VerifyMessageSchema,
  RequestMessageSchema,
]);
/** A message from the webview. */
export type WebviewToHost = z.infer<typeof WebviewToHostSchema>;

// ---------------------------------------------------------------- host → webview

/** A specialist as the picker shows it. */
export const SpecialistViewSchema = z.object({
  id: z.string(),
  label: z.string(),
  icon: z.string(),
  mandate: z.string(),
  persona_marker: z.string(),
  return_condition: z.string(),
  // The sources of SPECIALIST_SOURCES, spelled out: the webview bundle must not pull in the registry.
  source: z.enum(['builtin', 'custom', 'github-agent', 'claude-agent'] as const satisfies readonly SpecialistSource[]),
});
/** A specialist in the picker. */
export type SpecialistView = z.infer<typeof SpecialistViewSchema>;

/** What the panel needs to know to show the right state and next action. */
export const PanelStateSchema = z.object({
  hasFolder: z.boolean(),
  trusted: z.boolean(),
  handoffCount: natural(),
});
/** The panel's state. */
export type PanelState = z.infer<typeof PanelStateSchema>;

/** Settings the panel shows: token budget (tokens), encoding, hop limit. */
export const PanelSettingsSchema = z.object({
  maxContextTokens: positive(),
  tokenizer: z.string(),
  maxHandoverDepth: positive(),
  includeRecentTurns: natural(),
});

/** Host → webview: everything to start from (after `ready`, and after every resolve). */
export const InitNotificationSchema = z.strictObject({
  type: z.literal('init'),
  draft: DraftSchema,
  revision: natural(),
  specialists: z.array(SpecialistViewSchema),
  settings: PanelSettingsSchema,
  state: PanelStateSchema,
});

/** Host → webview: the workspace state changed (trust granted, handoffs written). */
export const StateNotificationSchema = z.strictObject({ type: z.literal('state'), state: PanelStateSchema });

/** The latest handoff the draft may continue (its chain), as the panel shows it. */
export const ChainViewSchema = z.object({ id: z.string(), specialist: z.string(), hop: z.number().check(z.int()), chain: z.array(z.string()) });

/** The evidence as the panel lists it (each item can be left out). */
export const EvidenceViewSchema = z.object({
  touched_files: z.array(TouchedFileSchema),
  touched_files_omitted: natural(),
  tests_run: z.array(TestRunSchema),
  commits: z.array(CommitSchema),
  recent_turns: z.array(TurnSchema),
  branch: z.nullable(z.string()),
  head_commit: z.nullable(z.string()),
  notes: z.array(z.string()),
  git_problem: z.nullable(z.enum(['not_repository', 'no_work_tree', 'git_missing', 'failed'])),
  latest: z.nullable(ChainViewSchema),
});
/** Evidence as listed. */
export type EvidenceView = z.infer<typeof EvidenceViewSchema>;

/**
 * Host → webview: evidence collection started (`loading`), finished (`ready`, with the
 * evidence) or failed (`error`, with the message to show).
 */
export const EvidenceNotificationSchema = z.strictObject({
  type: z.literal('evidence'),
  status: z.enum(['loading', 'ready', 'error']),
  evidence: z.nullable(EvidenceViewSchema),
  message: z.optional(z.string()),
});

/**
 * Host → webview: the token estimate of the draft as it would be written: `tokens` against
 * `budget` (tokens in `tokenizer`), `estimated` when long runs were chunked, and when over
 * budget what fit-to-budget would cut (`cuts`) and how many tokens are left after it;
 * `problem` is why the draft cannot be estimated (the engine's error); `hop_guard` the warning.
 */
export const EstimateNotificationSchema = z.strictObject({
  type: z.literal('estimate'),
  tokens: natural(),
  budget: positive(),
  estimated: z.boolean(),
  over: z.boolean(),
  cuts: z.array(DroppedSchema),
  fitted_tokens: z.nullable(natural()),
  hop: positive(),
  hop_guard: z.nullable(HopGuardSchema),
  problem: z.nullable(z.string()),
  /** The loss report of the package as estimated: what the session log holds that it does not carry. */
  left_out: z.optional(LeftOutSchema),
});
/** A token estimate. */
export type EstimateNotification = z.infer<typeof EstimateNotificationSchema>;

/** Host → webview: a handoff was written; the draft was cleared (at `revision`). */
export const HandedOverNotificationSchema = z.strictObject({
  type: z.literal('handedOver'),
  persona_marker: z.string(),
  /** The handoff's id: the banner's actions name it, so they act on this handoff. */
  handoff_id: z.string().check(z.minLength(1), z.maxLength(300)),
  handoff_file: z.string(),
  /** The handoff folder relative to the workspace (`.handoff`), when it is inside it: the banner says it is meant to be committed. */
  handoff_root: z.optional(z.string().check(z.maxLength(1000))),
  tokens: z.number().check(z.int()),
  budget: z.number().check(z.int()),
  revision: natural(),
});

/** Host → webview: a message to show at the top of the panel (e.g. a write failure). */
export const BannerNotificationSchema = z.strictObject({ type: z.literal('banner'), kind: z.enum(['error', 'warning', 'info']), message: z.string() });

/**
 * Host → webview: the session's draft from the evidence (`src/engine/drafting.ts`),
 * sent after the evidence is collected and after a `redraft`; `drafted` names the fields it
 * has something for; `redraft` says the user asked for it (the panel then says which fields
 * it re-filled and which edited ones it left); `fit` that the draft as filled would be over its
 * budget, so the panel switches Fit to budget on with it. Nothing is written: only "Hand over" writes.
 */
export const DraftNotificationSchema = z.strictObject({
  type: z.literal('draft'),
  draft: SessionDraftSchema,
  drafted: z.array(DraftedFieldSchema),
  redraft: z._default(z.boolean(), false),
  fit: z._default(z.boolean(), false),
});
/** A session draft as sent. */
export type DraftNotification = z.infer<typeof DraftNotificationSchema>;

/** The fields a language model drafts (src/engine/modelDraft.ts): summary, decisions, failed approaches, next steps. */
export const ModelDraftFieldsSchema = z.pick(SessionDraftSchema, { summary: true, decisions: true, failed_approaches: true, next_steps: true });

/**
 * Host → webview: the language-model draft ("Draft with …"): `available` (a model
 * can be asked: `model` names it, no request sent), `unavailable` (`message` says why),
 * `running`, `done` (with `fields` and the token cost `input_tokens` / `output_tokens`),
 * `cancelled` or `failed` (`message`).
 */
export const ModelDraftNotificationSchema = z.strictObject({
  type: z.literal('modelDraft'),
  state: z.enum(['available', 'unavailable', 'running', 'done', 'cancelled', 'failed']),
  model: z.optional(z.string()),
  message: z.optional(z.string()),
  input_tokens: z.optional(natural()),
  output_tokens: z.optional(natural()),
  fields: z.optional(ModelDraftFieldsSchema),
});
/** The language-model draft's state as sent. */
export type ModelDraftNotification = z.infer<typeof ModelDraftNotificationSchema>;

/** Host → webview: the answer to a request. */
export const ResponseSchema = z.strictObject({ type: z.literal('response'), id: natural(), ok: z.boolean(), message: z.optional(z.string()) });

/** Every message the host may send. */
export const HostToWebviewSchema = z.discriminatedUnion('type', [
  InitNotificationSchema,
  StateNotificationSchema,
  EvidenceNotificationSchema,
  EstimateNotificationSchema,
  HandedOverNotificationSchema,
  BannerNotificationSchema,
  DraftNotificationSchema,
  ModelDraftNotificationSchema,
  ResponseSchema,
]);
/** A message from the host. */
export type HostToWebview = z.infer<typeof HostToWebviewSchema>;

/** zod's English wording of an issue, e.g. `Invalid input: expected string, received number`. */
let english: z.core.$ZodErrorMap | undefined;

/**
 * Validates a message from the webview. The refusal is worded in English whatever zod
 * locale is configured (zod/mini loads none by itself).
 * @returns the message, or `{error}` describing why it was refused (for the log): the
 *   path at fault (at most 200 characters) and zod's message (at most 300)
 */
export function parseWebviewMessage(raw: unknown): { ok: true; message: WebviewToHost } | { ok: false; error: string } {
  english ??= en().localeError;
  const r = WebviewToHostSchema.safeParse(raw, { error: english });
  if (r.success) {
    return { ok: true, message: r.data };
  }
  const issue = r.error.issues[0];
  // Bounded: the reason goes to the log, whatever the message held.
  const where = (issue?.path.join('.') || 'message').slice(0, 200);
  return { ok: false, error: `${where}: ${(issue?.message ?? 'invalid').slice(0, 300)}` };
}
