/**
 * Whether a transcript the user named (the CLI's `--session-log PATH`) can be opened, before
 * any job reads or writes: src/evidence/session/access.ts. Its own module, so a command that
 * checks the flag loads nothing of the readers.
 */
export { transcriptAccess, type TranscriptAccessProblem } from '../../evidence/session/access';
