/**
 * Every id the extension contributes or stores, named once (command ids, view ids,
 * configuration keys, context keys, workspaceState keys). package.json uses the same strings.
 */

/** Command ids (category "Handoff" in package.json). */
export const Commands = {
  endSession: 'handoff.endSession',
  refreshTimeline: 'handoff.refreshTimeline',
  openHandoffFolder: 'handoff.openHandoffFolder',
  startNewSession: 'handoff.startNewSession',
  copyPrompt: 'handoff.copyPrompt',
  openInChat: 'handoff.openInChat',
  recordResult: 'handoff.recordResult',
  timelineShowMore: 'handoff.timeline.showMore',
  timelineOpenBriefing: 'handoff.timeline.openBriefing',
  timelineReveal: 'handoff.timeline.revealInExplorer',
  timelineSetStatus: 'handoff.timeline.setStatus',
  timelineMarkPartial: 'handoff.timeline.markPartial',
  timelineDelete: 'handoff.timeline.delete',
  exportAgents: 'handoff.exportAgents',
  continueIn: 'handoff.continueIn',
  verify: 'handoff.verify',
  showInsights: 'handoff.showInsights',
} as const;

/** View container and view ids. */
export const Views = {
  container: 'handoff',
  handOver: 'handoff.handOver',
  timeline: 'handoff.timeline',
  /** The "Handoff Insights" webview panel (an editor). */
  insights: 'handoff.insights',
} as const;

/** Configuration section and keys (`handoff.*`). */
export const Config = {
  section: 'handoff',
  directory: 'directory',
  maxContextTokens: 'maxContextTokens',
  includeRecentTurns: 'includeRecentTurns',
  userRequestTokens: 'userRequestTokens',
  tokenizer: 'tokenizer',
  maxHandoverDepth: 'maxHandoverDepth',
  sessionLogSources: 'sessionLog.sources',
  sessionLogLocations: 'sessionLog.locations',
  timelineOrder: 'timeline.order',
  continueIn: 'continueIn',
  verifyTimeoutSeconds: 'verify.timeoutSeconds',
  pendingWarnAfter: 'pendingWarnAfter',
} as const;

/** Context keys the extension sets (package.json's `when` clauses read them). */
export const ContextKeys = {
  /** True once the timeline's tree provider is registered: the view shows from then on, never VS Code's "no data provider". */
  timelineReady: 'handoff.timelineReady',
} as const;

/** workspaceState keys. */
export const StorageKeys = {
  sessionId: 'handoff.sessionId',
  lastSpecialist: 'handoff.lastSpecialist',
  continueIn: 'handoff.continueIn.last',
} as const;

/** Name of the output channel (a LogOutputChannel). */
export const OUTPUT_CHANNEL_NAME = 'Specialist Handoff';

/**
 * The `@handoff` chat participant's avatar, relative to the extension folder: one file per
 * theme kind (VS Code shows `dark` in dark and high-contrast dark themes, `light` in light
 * and high-contrast light). media/handoff.svg strokes with `currentColor`, which an avatar
 * (an image, not a mask) draws black: invisible on high-contrast dark. Each file strokes
 * with a fixed colour of at least 7:1 contrast against its themes' backgrounds.
 */
export const CHAT_AVATAR = { light: 'media/handoff-avatar-light.svg', dark: 'media/handoff-avatar-dark.svg' } as const;
