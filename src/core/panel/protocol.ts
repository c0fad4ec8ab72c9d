/**
 * The "Hand over" webview ↔ host protocol, validated on arrival both ways: the host never trusts the webview.
 * Commands are fire and forget (the host holds its posts until `ready`); requests get a `response` with the same `id`.
 * zod/mini without the registry or YAML, so the webview bundle stays small.
 */
import * as z from 'zod/mini';
import { en } from 'zod/locales';
import { DraftSchema } from './draft';
import { CommitSchema, DroppedSchema, HopGuardSchema, TestRunSchema, TouchedFileSchema, TurnSchema } from '../handoff/fields';
import { DraftedFieldSchema, SessionDraftSchema, LeftOutSchema } from '../handoff/draftFields';

export type { SessionDraft, DraftedField, LeftOut, Provenance } from '../handoff/draftFields';
import type { SpecialistSource } from '../specialists/registry';

const natural = () => z.number().check(z.int(), z.nonnegative());
const positive = () => z.number().check(z.int(), z.positive());

export const ReadyMessageSchema = z.strictObject({ type: z.literal('ready') });

/** Debounced by the webview; `revision` counts the edits. */
export const DraftChangedMessageSchema = z.strictObject({ type: z.literal('draftChanged'), draft: DraftSchema, revision: natural() });

export const RefreshEvidenceMessageSchema = z.strictObject({ type: z.literal('refreshEvidence') });

/** The webview re-fills fields still as drafted and empty ones, and asks before replacing edited ones. */
export const RedraftMessageSchema = z.strictObject({ type: z.literal('redraft') });

/** Only ever sent on the user's click. */
export const DraftWithModelMessageSchema = z.strictObject({ type: z.literal('draftWithModel') });

export const CancelModelDraftMessageSchema = z.strictObject({ type: z.literal('cancelModelDraft') });

/** The host asks consent before any recorded command re-runs; the webview never runs anything. */
export const VerifyMessageSchema = z.strictObject({ type: z.literal('verify'), handoff: z.string().check(z.minLength(1), z.maxLength(300)) });

/** The only commands the panel may ask the host to run. */
export const PanelCommandSchema = z.enum([
  'endSession',
  'manageTrust',
  'openFolder',
  'openSettings',
  'openHandoffFolder',
  'initRepository',
  'openGitSettings',
  'copyPrompt',
  'openInChat',
]);
/** `handoff` (from `handedOver`) makes the command act on that handoff, not the newest; the host acts only on handoffs this panel wrote. */
export const RunCommandMessageSchema = z.strictObject({
  type: z.literal('runCommand'),
  command: PanelCommandSchema,
  handoff: z.optional(z.string().check(z.minLength(1), z.maxLength(300))),
});

/** Opens the handoff this draft would write, rendered, in a preview editor. */
export const PreviewRequestSchema = z.strictObject({
  type: z.literal('request'),
  id: natural(),
  method: z.literal('preview'),
  draft: DraftSchema,
  revision: natural(),
});
export const HandOverRequestSchema = z.strictObject({
  type: z.literal('request'),
  id: natural(),
  method: z.literal('handOver'),
  draft: DraftSchema,
  revision: natural(),
});

export const RequestMessageSchema = z.discriminatedUnion('method', [PreviewRequestSchema, HandOverRequestSchema]);

/** Discriminated by `type`, so a refusal names the field at fault. */
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
export type WebviewToHost = z.infer<typeof WebviewToHostSchema>;

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
export type SpecialistView = z.infer<typeof SpecialistViewSchema>;

export const PanelStateSchema = z.object({
  hasFolder: z.boolean(),
  trusted: z.boolean(),
  handoffCount: natural(),
});
export type PanelState = z.infer<typeof PanelStateSchema>;

export const PanelSettingsSchema = z.object({
  maxContextTokens: positive(),
  tokenizer: z.string(),
  maxHandoverDepth: positive(),
  includeRecentTurns: natural(),
});

/** After `ready` and after every resolve. */
export const InitNotificationSchema = z.strictObject({
  type: z.literal('init'),
  draft: DraftSchema,
  revision: natural(),
  specialists: z.array(SpecialistViewSchema),
  settings: PanelSettingsSchema,
  state: PanelStateSchema,
});

export const StateNotificationSchema = z.strictObject({ type: z.literal('state'), state: PanelStateSchema });

/** The latest handoff the draft may continue. */
export const ChainViewSchema = z.object({ id: z.string(), specialist: z.string(), hop: z.number().check(z.int()), chain: z.array(z.string()) });

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
export type EvidenceView = z.infer<typeof EvidenceViewSchema>;

export const EvidenceNotificationSchema = z.strictObject({
  type: z.literal('evidence'),
  status: z.enum(['loading', 'ready', 'error']),
  evidence: z.nullable(EvidenceViewSchema),
  message: z.optional(z.string()),
});

/** `estimated` when long runs were chunked; `cuts` and `fitted_tokens` say what fit-to-budget would do; `problem` why it cannot be estimated. */
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
  /** What the session log holds that the package does not carry. */
  left_out: z.optional(LeftOutSchema),
});
export type EstimateNotification = z.infer<typeof EstimateNotificationSchema>;

/** The draft was cleared at `revision`. */
export const HandedOverNotificationSchema = z.strictObject({
  type: z.literal('handedOver'),
  persona_marker: z.string(),
  /** The banner's actions name it, so they act on this handoff. */
  handoff_id: z.string().check(z.minLength(1), z.maxLength(300)),
  handoff_file: z.string(),
  /** Relative to the workspace, when inside it: the banner says it is meant to be committed. */
  handoff_root: z.optional(z.string().check(z.maxLength(1000))),
  tokens: z.number().check(z.int()),
  budget: z.number().check(z.int()),
  revision: natural(),
});

export const BannerNotificationSchema = z.strictObject({ type: z.literal('banner'), kind: z.enum(['error', 'warning', 'info']), message: z.string() });

/**
 * Sent after the evidence is collected and after a `redraft` (the panel then says what it re-filled and left). `fit`: the
 * draft is over budget, so the panel switches Fit to budget on. Nothing is written: only "Hand over" writes.
 */
export const DraftNotificationSchema = z.strictObject({
  type: z.literal('draft'),
  draft: SessionDraftSchema,
  drafted: z.array(DraftedFieldSchema),
  redraft: z._default(z.boolean(), false),
  fit: z._default(z.boolean(), false),
});
export type DraftNotification = z.infer<typeof DraftNotificationSchema>;

/** The fields a language model drafts (src/engine/draft/modelDraft.ts). */
export const ModelDraftFieldsSchema = z.pick(SessionDraftSchema, { summary: true, decisions: true, failed_approaches: true, next_steps: true });

/** `available`: `model` names it, nothing sent yet; `unavailable`/`failed`: `message` says why; `done`: `fields` and the token cost. */
export const ModelDraftNotificationSchema = z.strictObject({
  type: z.literal('modelDraft'),
  state: z.enum(['available', 'unavailable', 'running', 'done', 'cancelled', 'failed']),
  model: z.optional(z.string()),
  message: z.optional(z.string()),
  input_tokens: z.optional(natural()),
  output_tokens: z.optional(natural()),
  fields: z.optional(ModelDraftFieldsSchema),
});
export type ModelDraftNotification = z.infer<typeof ModelDraftNotificationSchema>;

export const ResponseSchema = z.strictObject({ type: z.literal('response'), id: natural(), ok: z.boolean(), message: z.optional(z.string()) });

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
export type HostToWebview = z.infer<typeof HostToWebviewSchema>;

/** zod's English wording of an issue, e.g. `Invalid input: expected string, received number`. */
let english: z.core.$ZodErrorMap | undefined;

/** The refusal is in English whatever zod locale is set (zod/mini loads none): the path at fault and zod's message, bounded, for the log. */
export function parseWebviewMessage(raw: unknown): { ok: true; message: WebviewToHost } | { ok: false; error: string } {
  english ??= en().localeError;
  const r = WebviewToHostSchema.safeParse(raw, { error: english });
  if (r.success) {
    return { ok: true, message: r.data };
  }
  const issue = r.error.issues[0];
  const where = (issue?.path.join('.') || 'message').slice(0, 200);
  return { ok: false, error: `${where}: ${(issue?.message ?? 'invalid').slice(0, 300)}` };
}
