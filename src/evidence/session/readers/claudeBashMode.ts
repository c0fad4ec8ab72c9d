// Claude Code's bash mode (`!CMD` in the prompt): recorded in the user's role as `<bash-input>CMD</bash-input>`, then
// `<bash-stdout>…</bash-stdout><bash-stderr>…</bash-stderr>` in the same or the next record. A command the session ran
// (never a user request), exit code unknown.
import { outputTail, type SessionCommand } from '../../../core/session/events';

const INPUT = /<bash-input>([\s\S]*?)<\/bash-input>/;
const STDOUT = /<bash-stdout>([\s\S]*?)<\/bash-stdout>/;
const STDERR = /<bash-stderr>([\s\S]*?)<\/bash-stderr>/;

export class BashModeCommands {
  private pending: { command: string; time?: string; cwd?: string } | undefined;

  constructor(private readonly emit: (c: SessionCommand) => void) {}

  /** A main-session user record's text: a sub-agent has no bash mode. */
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

  /** At the end of the file, or before the next command. */
  flush(output?: string): void {
    if (!this.pending) return;
    const { command, time, cwd } = this.pending;
    this.pending = undefined;
    this.emit({ kind: 'command', command, cwd: cwd ?? null, exit_code: null, ran: true, output_tail: outputTail(output), ...(time ? { time } : {}) });
  }
}
