/** Setting defaults and types for entry points, so they need not reach into the store or evidence layers. */
export { DEFAULT_HANDOFF_DIRECTORY } from '../../store/pathGuard';
export { DEFAULT_USER_REQUEST_TOKENS } from '../../core/handoff/request';
export type { InteropMode, InteropSettings } from '../../store/interop/mirrors';
export type { SessionLocations } from '../../evidence/session/discovery';
