/**
 * Claude Code's bash mode (`!` before a command in the prompt): the user runs a shell command
 * themselves, and the transcript records it in the user's role — `<bash-input>CMD</bash-input>`,
 * then `<bash-stdout>…</bash-stdout><bash-stderr>…</bash-stderr>` in the same record or the next
 * one. These are commands the session ran, never the user's requests
 * (core/session/requests.ts). Claude Code records no exit code for them: it stays unknown.
 */
import { outputTail, type SessionCommand } from '../../../core/session/events';

const INPUT = /<bash-input>([\s\S]*?)<\/bash-input>/;
const STDOUT = /<bash-stdout>([\s\S]*?)<\/bash-stdout>/;
const STDERR = /<bash-stderr>([\s\S]*?)<\/bash-stderr>/;

/** Pairs each `<bash-input>` with the output that follows it and hands the command on. */
export class BashModeCommands {
  private pending: { command: string; time?: string; cwd?: string } | undefined;

  constructor(private readonly emit: (c: SessionCommand) => void) {}

  /** Reads one user record's text (a main-session record: a sub-agent has no bash mode). */
  line(text: string, time: string | undefined, cwd: string | undefined): void {
    if (!text.includes('<bash-')) return;
    const input = INPUT.exec(text);
    if (input) {
      this.flush();
      const command = input[1].trim();
      if (command) this.pending = { command, time, cwd };
    }
    const out = STDOUT.exec(text);
    const err = STDERR.exec(text);
    if ((out || err) && this.pending) this.flush([out?.[1], err?.[1]].filter((s) => s && s.trim()).join('\n'));
  }

  /** Hands on the command waiting for its output (at the end of the file, or before the next one). */
  flush(output?: string): void {
    if (!this.pending) return;
    const { command, time, cwd } = this.pending;
    this.pending = undefined;
    this.emit({ kind: 'command', command, cwd: cwd ?? null, exit_code: null, ran: true, output_tail: outputTail(output), ...(time ? { time } : {}) });
  }
}
