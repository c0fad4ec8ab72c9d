/** Every id the extension contributes or stores; package.json uses the same strings. */

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

export const Views = {
  container: 'handoff',
  handOver: 'handoff.handOver',
  timeline: 'handoff.timeline',
  insights: 'handoff.insights',
} as const;

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
  /** Set once the tree provider is registered, so the view never shows "no data provider". */
  timelineReady: 'handoff.timelineReady',
} as const;

export const StorageKeys = {
  sessionId: 'handoff.sessionId',
  lastSpecialist: 'handoff.lastSpecialist',
  continueIn: 'handoff.continueIn.last',
} as const;

export const OUTPUT_CHANNEL_NAME = 'Specialist Handoff';

/**
 * Chat avatar per theme kind. Not media/handoff.svg: its `currentColor` stroke draws black in
 * an avatar, invisible on high-contrast dark.
 */
export const CHAT_AVATAR = { light: 'media/handoff-avatar-light.svg', dark: 'media/handoff-avatar-dark.svg' } as const;
