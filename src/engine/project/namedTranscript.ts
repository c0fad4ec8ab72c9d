/** Its own module, so checking `--session-log PATH` loads none of the readers. */
export { transcriptAccess, type TranscriptAccessProblem } from '../../evidence/session/access';
