// The user's requests and the non-test commands across every transcript of a handoff (docs/DESIGN.md §6): requests
// oldest first, the newest MAX_KEPT_USER_REQUESTS kept; commands grouped by text and folder, failures first, then newest.
import path from 'node:path';
import type { CommandRun, UserRequest } from '../../core/handoff/draftFields';
import type { CommandGroup } from '../../core/session/commands';
import type { SessionSource, SessionUserRequest, TranscriptRead } from '../../core/session/events';

/** Well above any token bound's need. */
export const MAX_KEPT_USER_REQUESTS = 200;

/** Per transcript, so the latest request survives a handoff with no new message. */
export const REMEMBERED_USER_REQUESTS = 5;

export type UserRequestEvidence = UserRequest & { readonly file: string | null };

interface Kept {
  readonly request: UserRequestEvidence;
  /** ms, for ordering across transcripts. */
  readonly at: number;
  readonly order: number;
}

interface Grouped {
  run: CommandRun;
  at: number;
  order: number;
}

/** Relative to the workspace (`.` for itself, POSIX separators) when inside it, else as recorded. */
export function shownCwd(cwd: string | null, root: string | undefined): string | null {
  if (!cwd || !root || !path.isAbsolute(cwd)) return cwd;
  const rel = path.relative(root, cwd);
  if (rel === '') return '.';
  return !rel.startsWith('..') && !path.isAbsolute(rel) ? rel.split(path.sep).join('/') : cwd;
}

/** Bounded: at most {@link MAX_KEPT_USER_REQUESTS} requests plus one transcript's worth, and each reader's command groups. */
export class RequestsAndCommands {
  private requests: Kept[] = [];
  private readonly groups = new Map<string, Grouped>();
  private order = 0;
  private requestsSeen = 0;
  private commandsSeen = 0;
  private turnsSeen = 0;

  constructor(private readonly workspaceRoot: string | undefined) {}

  /**
   * Its new user requests, else those remembered from the previous read of the file. A sub-agent's transcript adds
   * commands and turns, never requests: its user-role messages are the lead agent's prompts.
   * @param mtimeMs the time of requests whose format records none
   * @returns the requests to remember for this file (the newest {@link REMEMBERED_USER_REQUESTS})
   */
  add(
    t: { readonly source: SessionSource; readonly file: string; readonly subagent?: boolean },
    r: TranscriptRead,
    remembered: readonly SessionUserRequest[],
    mtimeMs: number,
  ): SessionUserRequest[] {
    const { source, file } = t;
    const fresh = t.subagent ? [] : (r.user_requests ?? []);
    const used = fresh.length || t.subagent ? fresh : remembered;
    this.requestsSeen += fresh.length ? Math.max(r.seen?.requests ?? 0, fresh.length) : used.length;
    this.turnsSeen += r.seen?.turns ?? r.events.filter((e) => e.kind === 'turn').length;
    // A request without a time takes the time of the one before it (or the first timed one, or the file's).
    const firstTimed = used.map((u) => (u.time ? Date.parse(u.time) : NaN)).find((x) => Number.isFinite(x));
    let at = firstTimed ?? mtimeMs;
    for (const u of used) {
      const t = u.time ? Date.parse(u.time) : NaN;
      if (Number.isFinite(t)) at = t;
      this.requests.push({ request: { text: u.text, time: u.time ?? null, source, file }, at, order: this.order++ });
    }
    if (this.requests.length > 2 * MAX_KEPT_USER_REQUESTS) this.requests = this.sortedRequests().slice(-MAX_KEPT_USER_REQUESTS);
    this.addCommands(source, r.command_groups ?? [], r.seen?.other_commands);
    return used.slice(-REMEMBERED_USER_REQUESTS).map((u) => ({ text: u.text, ...(u.time ? { time: u.time } : {}) }));
  }

  private addCommands(source: SessionSource, groups: readonly CommandGroup[], seen: number | undefined): void {
    this.commandsSeen += Math.max(
      seen ?? 0,
      groups.reduce((n, g) => n + g.count, 0),
    );
    for (const g of [...groups].sort((a, b) => a.seq - b.seq)) {
      const cwd = shownCwd(g.cwd, this.workspaceRoot);
      const key = `${cwd ?? ''}\u0000${g.command}`;
      const at = g.last_at ? Date.parse(g.last_at) : NaN;
      const prev = this.groups.get(key);
      const run: CommandRun = {
        command: g.command,
        cwd,
        kind: g.kind,
        exit_code: g.exit_code,
        result: g.result,
        count: g.count + (prev?.run.count ?? 0),
        failed_count: g.failed_count + (prev?.run.failed_count ?? 0),
        source,
        last_at: g.last_at,
      };
      // The same command in two transcripts: the later run gives the result.
      const later = !prev || !Number.isFinite(prev.at) || !Number.isFinite(at) || at >= prev.at;
      this.groups.set(
        key,
        later
          ? { run, at: Number.isFinite(at) ? at : (prev?.at ?? NaN), order: this.order++ }
          : { ...prev, run: { ...prev.run, count: run.count, failed_count: run.failed_count } },
      );
    }
  }

  private sortedRequests(): Kept[] {
    return [...this.requests].sort((a, b) => a.at - b.at || a.order - b.order);
  }

  result(): { user_requests: UserRequestEvidence[]; user_requests_seen: number; commands_run: CommandRun[]; commands_seen: number; turns_seen: number } {
    const runs = [...this.groups.values()].sort((a, b) => {
      const fa = a.run.result === 'failed' ? 0 : 1;
      const fb = b.run.result === 'failed' ? 0 : 1;
      if (fa !== fb) return fa - fb;
      if (Number.isFinite(a.at) && Number.isFinite(b.at) && a.at !== b.at) return b.at - a.at;
      return b.order - a.order;
    });
    return {
      user_requests: this.sortedRequests()
        .slice(-MAX_KEPT_USER_REQUESTS)
        .map((k) => k.request),
      user_requests_seen: this.requestsSeen,
      commands_run: runs.map((g) => g.run),
      commands_seen: this.commandsSeen,
      turns_seen: this.turnsSeen,
    };
  }
}
