/** What `--help` and `--version` print (docs/CLI.md describes the same in full). */

export const VERSION = '0.1.0';

/** One subcommand's synopsis lines and description; `<subcommand> --help` prints only this. */
export interface CommandUsage {
  readonly synopsis: string;
  readonly details: string;
}

/** In `--help` order; each names every option in COMMAND_OPTIONS (args.ts). */
export const COMMAND_USAGE: Readonly<Record<string, CommandUsage>> = {
  handover: {
    synopsis: `  specialist-handoff handover --specialist ID --topic TOPIC [--summary TEXT | --summary-file PATH]
      [--decision TEXT]… [--failed TEXT]… [--next TEXT]… [--blocker TEXT]… [--artifact TEXT]…
      [--turn "ROLE: TEXT"]… [--return-condition TEXT] [--reason TEXT] [--reason-kind KIND]
      [--from NAME] [--parent REF|none] [--max-depth N] [--confirm-hop] [--session-id ID]
      [--session-log WHERE] [--budget small|default|large|N | --max-tokens N] [--recent-turns N] [--tokenizer NAME] [--no-fit]
      [--done TEXT]… [--draft] [--user-request-tokens N] [--json] [--cwd DIR] [--dir FOLDER]`,
    details: `handover options:
  -s, --specialist ID        who receives the work (see "specialist-handoff specialists")
  -t, --topic TEXT           what the work is about; becomes the file-name slug
      --summary TEXT         what happened so far
      --summary-file PATH    read the summary from a file ("-" for standard input)
      --decision TEXT        a decision made (repeatable; numbered D1, D2 …)
      --failed TEXT          an approach that was tried and failed (repeatable)
      --next TEXT            a next step (repeatable)
      --blocker TEXT         something that blocks the work (repeatable)
      --artifact TEXT        a relevant file or reference (repeatable)
      --done TEXT            something done (repeatable; the "Done" section)
      --draft                fill every field not given here from the session log and git:
                             the summary, next steps (the plan's open items), done items and
                             blockers (see "specialist-handoff draft")
      --user-request-tokens N  tokens of the user's own requests carried verbatim, newest
                             first (default 1500); the latest is always carried
      --turn "ROLE: TEXT"    a recent conversation turn, oldest first (repeatable)
      --return-condition T   when the specialist should hand back (default: the specialist's)
      --reason TEXT          why the work is handed over
      --reason-kind KIND     capability_boundary | specialization | escalation |
                             load_balancing | end_of_session
      --from NAME            who hands over (default: developer)
      --budget B             token budget of the handoff's body: small (1,000), default (3,000),
                             large (8,000) or a number of tokens
      --max-tokens N         token budget of the handoff's body as a number (default 3000)
      --recent-turns N       recent turns kept (default 5)
      --tokenizer NAME       o200k_base (default) | cl100k_base
      --dir FOLDER           handoff folder inside the workspace (default .handoff)
      --no-fit               keep everything even when over budget (a WARNING is printed)
      --parent REF           continue a chain: a handoff id, its file name, or "latest";
                             "none" starts a new chain (the default)
      --max-depth N          hops a chain may take before the hop guard stops it (default 3)
      --confirm-hop          hand over although the hop guard warns (too deep, or back to a
                             specialist already in the chain); the handoff records it
      --session-id ID        session id to record (default: the CLI's saved session id for
                             this workspace; each handoff starts a new one)
      --session-log WHERE    auto (default: find this workspace's Claude Code, Codex, Aider,
                             Cline/Roo, SpecStory, Copilot, Gemini CLI and OpenCode
                             transcripts), none, or the path of one transcript file (or
                             Cline task folder)
      --json                 print the result object (or the error object) as JSON on stdout
      --cwd DIR              where to run (default: the current directory); the workspace
                             is its git repository's top level, or DIR itself outside git

--turn roles: user, assistant, system, tool ("ROLE: TEXT"); text without a role is the
assistant's.`,
  },
  draft: {
    synopsis: `  specialist-handoff draft [--session-log WHERE] [--recent-turns N] [--tokenizer NAME]
      [--user-request-tokens N] [--json] [--cwd DIR] [--dir FOLDER]`,
    details: `draft: prints what "handover --draft" would fill in from the session log and git, each
item with its source — the summary, the next steps (the plan's item in progress, then the
pending ones), what is done, blockers (a failing last test run), the user's own requests
verbatim (newest within --user-request-tokens, default 1500; the latest always), the commands
run beside tests (failures first, 15 listed) and what a handoff would leave out. Writes
nothing. --json prints {status, draft, session_sources, warnings}.`,
  },
  prompt: {
    synopsis: `  specialist-handoff prompt [--specialist ID] [--handoff REF] [--no-take] [--session-id ID]
      [--json] [--cwd DIR] [--dir FOLDER]`,
    details: `prompt: prints what the receiving agent needs to pick a handoff up — the specialist's
mandate, receive rules, run context, what changed since the handoff (staleness), the
handoff itself and the prior handoffs as digests linking their files (30 KB in all), after
the verification line when the handoff was verified. Default: the newest handoff (to
--specialist when given); a pending one is marked "accepted" by this session (--session-id,
default: the CLI's saved one) unless --no-take.`,
  },
  history: {
    synopsis: `  specialist-handoff history [--handoff REF] [--max-tokens N] [--session-log WHERE] [--json]
      [--cwd DIR] [--dir FOLDER]`,
    details: `history: prints the session behind a handoff (request_full_history): the turns, commands and
their results of the transcripts it was written from, read again from the session's base
(the previous handoff) to the handoff, secrets redacted, at most --max-tokens tokens
(default and at most 50000, at least 1000): tool output is dropped first, then the middle
is elided with a marker naming what was left out; the first and the latest turns are kept
whole. Default: the newest handoff. A transcript the handoff names only by file name is
found with --session-log (default auto). Writes nothing. --json prints the result object
{status, handoff_id, text, tokens, elided, sources, redactions, warnings …}.`,
  },
  'record-result': {
    synopsis: `  specialist-handoff record-result --specialist ID [--handoff REF]…
      [--summary TEXT | --summary-file PATH] [--met N|TEXT|all]… [--next TEXT]… [--blocker TEXT]…
      [--proceed-if-taken] [--session-log WHERE] [--tokenizer NAME] [--session-id ID]
      [--json] [--cwd DIR] [--dir FOLDER]`,
    details: `record-result: the receiving specialist hands back. Writes a result entry per handoff
answered (default: every open handoff to --specialist) with the status the policy gives:
complete only when every acceptance criterion is met and no test failed after the last
passing run; blocked with --blocker; else in progress. The criteria are the handoff's next
steps, numbered 1…n, then its return condition as n+1; --met names one by number or text,
or "all". With no open handoff it writes a session note only. --proceed-if-taken records
even when another session took the handoff and never answered. --summary-file,
--session-log, --tokenizer and --session-id work as for handover.`,
  },
  specialists: {
    synopsis: '  specialist-handoff specialists [--json] [--cwd DIR] [--dir FOLDER]',
    details: `specialists: lists every specialist work can be handed to — its id, persona marker and
mandate, and for a custom or discovered one where it comes from; --json prints one object
per specialist. Warnings about specialist files go to standard error.`,
  },
  mcp: {
    synopsis: '  specialist-handoff mcp [--cwd DIR] [--dir FOLDER] [--omit-tool NAME]…',
    details: `mcp: serves the Model Context Protocol on stdio for MCP clients (Claude Code, Codex CLI,
Cline/Roo, VS Code …), with the tools handover_to_specialist, list_specialists,
prior_handoffs, record_result and request_full_history. The project is the git repository
of --cwd (default: the current directory); a tool's project_root may name that folder only.
Standard output carries the protocol only; diagnostics go to standard error. Runs until the
client closes standard input. --omit-tool NAME (repeatable) leaves that tool out of the list
and refuses calls to it (VS Code's server definition omits handover_to_specialist and
request_full_history, its own language model tools).`,
  },
  hook: {
    synopsis: `  specialist-handoff hook [--specialist ID] [--topic TEXT] [--cwd DIR] [--dir FOLDER]
  specialist-handoff hook --agent windsurf [--cwd DIR]`,
    details: `hook: for Claude Code's SessionEnd and PreCompact hooks. Reads the hook's JSON from standard
input (session_id, transcript_path, cwd, hook_event_name, reason or trigger) and writes a
safety-net handoff from git and the session transcript, to --specialist (default
implementation_engineer) on --topic (default: the git branch, else "session <id>"). Outside
a git repository it writes nothing unless --cwd names the folder. Other events are skipped
(the line names them); a FIFO or device as transcript_path is not read. On a session start
(SessionStart of Claude Code, Codex CLI, Gemini CLI or VS Code; Cline's TaskStart and
TaskResume) it prints the agent's JSON with the workspace's pending handoffs: the newest
one's receiving prompt when it fits in 10,000 characters, else a short list with the
command that takes each; it marks nothing picked up and writes nothing. Prints one line on
standard error; exits 0 when written, answered or skipped and 1 on any error (0 for Cline,
which stops the task otherwise), never 2, so the hook never blocks the agent.
With --agent windsurf it is the command of Windsurf's Cascade hooks (pre_user_prompt,
post_run_command, post_write_code, post_cascade_response in .windsurf/hooks.json): it appends
the payload, redacted and bounded, to the conversation's log in
$XDG_STATE_HOME/specialist-handoff/<workspace id>/windsurf/, which the session log reads;
it always exits 0 and prints nothing on standard output.`,
  },
  'export-agents': {
    synopsis: '  specialist-handoff export-agents [--target github|claude|all] [--force] [--json] [--cwd DIR] [--dir FOLDER]',
    details: `export-agents: writes the specialists (built-in and .handoff/specialists) as VS Code custom
agents (.github/agents/<id>.agent.md, with handoffs: buttons to the specialists each one
usually hands to) and Claude Code subagents (.claude/agents/<id>.md), so those tools offer
them too; --target picks one folder (default: all). A file whose text differs from ours
(edited by someone) is kept and reported as skipped unless --force.`,
  },
  continue: {
    synopsis: `  specialist-handoff continue --agent AGENT [--handoff REF] [--specialist ID]
      [--print] [--no-take] [--session-id ID] [--cwd DIR] [--dir FOLDER]
      AGENT: claude|codex|gemini|aider|copilot-cli|qwen|opencode|amp|kiro|droid|goose|cursor`,
    details: `continue: starts an agent in this terminal, in the workspace folder, with the receiving
prompt (what "prompt" prints) as its first message: claude, codex and droid get it as their
prompt argument, gemini and qwen as --prompt-interactive, copilot-cli (GitHub Copilot CLI's
copilot) as --interactive, opencode as --prompt, kiro as kiro-cli chat's first question, goose
as goose run --text --interactive; aider (--message) and amp (--execute) answer it and exit.
The agent is run directly, never through a shell. It is found on PATH, or at the path in
SPECIALIST_HANDOFF_<AGENT> (SPECIALIST_HANDOFF_CLAUDE, …_COPILOT_CLI, …). cursor opens Cursor's
chat with the prompt through its prompt link, handed to xdg-open (open on macOS); --print, or
no such program on PATH, prints the link instead; a prompt longer than a link holds is refused.
Default: the newest handoff (to --specialist when given), marked "accepted" unless --no-take
(cursor never marks it: the chat opens with the prompt, not sent).
--print prints the command instead, quoted for a POSIX shell, and marks nothing accepted.
Exits with the agent's exit code.`,
  },
  verify: {
    synopsis: `  specialist-handoff verify [--handoff REF] [--run] [--timeout SECONDS] [--session-id ID]
      [--json] [--cwd DIR] [--dir FOLDER]`,
    details: `verify: checks a handoff on receipt (default: the newest handoff; --handoff names one): what
changed in the workspace since it was written, and the test and build commands it recorded.
Only with --run are they re-run, one at a time, through the shell in the recorded folder,
each stopped with its whole process group after --timeout SECONDS (default 600); each result
is verified (same outcome now), contradicted (a different one) or unverifiable (folder gone,
command not found, timed out). With --run the verification is recorded and added to the
specialist's briefing, and the receiving prompt and the timeline show it. Without --run
nothing runs and nothing is written. Exits 3 when something is contradicted.`,
  },
  insights: {
    synopsis: `  specialist-handoff insights [--since DATE] [--pending-warn-after DURATION] [--max-depth N]
      [--json] [--cwd DIR] [--dir FOLDER]`,
    details: `insights: how the handoffs go, from the handoff files alone: per specialist and overall,
handoffs written, picked up, pending, accepted, in progress, complete and blocked; those
waiting too long (not picked up, or accepted and never answered, for longer than
--pending-warn-after: a number and m, h, d or w, such as 2d, the default, or "off"); the
median time to pick up and to complete; hand-backs, retries (a handoff handed back in
progress more than once) and hand-backs with a failing test; chains by length and how many
reached the depth limit (--max-depth, default 3). --since DATE (2026-11-28, or an ISO time
with its zone) counts only what was written since. Writes nothing. --json prints the
Insights object.`,
  },
};

/** The commands, as error messages list them: `"handover", "prompt", … or "export-agents"`. */
export const COMMAND_LIST = ((names) => `${names.slice(0, -1).join(', ')} or ${names[names.length - 1]}`)(Object.keys(COMMAND_USAGE).map((c) => `"${c}"`));

const EXIT_CODES = `Exit codes: 0 written, 2 bad input (one ERROR: line on stderr), 1 could not write; verify: 3 contradicted.`;

/** What `<command> --help` prints: its usage and the exit codes. */
export function commandUsage(command: string): string | undefined {
  if (!Object.hasOwn(COMMAND_USAGE, command)) return undefined;
  const u = COMMAND_USAGE[command];
  return `Usage:\n${u.synopsis}\n\n${u.details}\n\n${EXIT_CODES}`;
}

export const USAGE = `specialist-handoff — hand an AI-coding session over to the next specialist

Usage:
${Object.values(COMMAND_USAGE)
  .map((u) => u.synopsis)
  .join('\n')}
  specialist-handoff <command> --help    (that command's usage only)
  specialist-handoff --help | --version

${Object.values(COMMAND_USAGE)
  .map((u) => u.details)
  .join('\n\n')}

${EXIT_CODES}`;
