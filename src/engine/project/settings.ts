/**
 * The defaults and value types of the settings an entry point hands to the engine — VS
 * Code's `handoff.*` settings, the CLI's flags — so a surface reads its settings without
 * reaching into the store or the evidence layer (docs/ARCHITECTURE.md, "The front door"):
 *
 * - `DEFAULT_HANDOFF_DIRECTORY` — the `handoff.directory` default, `.handoff`;
 * - `InteropMode` / `InteropSettings` — `handoff.interop.itervox` and
 *   `handoff.interop.agentZero`, each `auto` (the default) or `off`;
 * - `SessionLocations` — `handoff.sessionLog.locations`: a folder override per
 *   session-log reader;
 * - `DEFAULT_USER_REQUEST_TOKENS` — the `handoff.userRequestTokens` default, 1,500 tokens
 *   (the user's requests a handoff keeps, newest first; the latest always).
 */
export { DEFAULT_HANDOFF_DIRECTORY } from '../../store/pathGuard';
export { DEFAULT_USER_REQUEST_TOKENS } from '../../core/handoff/request';
export type { InteropMode, InteropSettings } from '../../store/interop/mirrors';
export type { SessionLocations } from '../../evidence/session/discovery';
