/** Multi-step quick input with a step counter and Back; each step resolves to a value, `BACK`, or undefined (Escape). */
import * as vscode from 'vscode';

/** Returned when the user pressed the Back button. */
export const BACK = Symbol('back');
/** Returned when the user pressed a step's "Draft with …" button. */
export const DRAFT_WITH_MODEL = Symbol('draftWithModel');
export type StepResult<T> = T | typeof BACK | undefined;

export interface StepFrame {
  readonly title: string;
  /** The step's number and the number of steps; absent for a question asked alone. */
  readonly step?: number;
  readonly totalSteps?: number;
}

function frame<T extends vscode.QuickPick<vscode.QuickPickItem> | vscode.InputBox>(input: T, f: StepFrame): T {
  input.title = f.title;
  input.step = f.step;
  input.totalSteps = f.totalSteps;
  input.ignoreFocusOut = true;
  input.buttons = (f.step ?? 1) > 1 ? [vscode.QuickInputButtons.Back] : [];
  return input;
}

/** Resolves once: what `wire` passes to `done`, {@link BACK}, or undefined when hidden (Escape). */
function run<T, Q extends vscode.QuickPick<vscode.QuickPickItem> | vscode.InputBox>(
  input: Q,
  wire: (done: (v: StepResult<T>) => void) => void,
): Promise<StepResult<T>> {
  return new Promise((resolve) => {
    let settled = false;
    const done = (v: StepResult<T>) => {
      if (!settled) {
        settled = true;
        resolve(v);
        input.dispose();
      }
    };
    input.onDidTriggerButton((b) => b === vscode.QuickInputButtons.Back && done(BACK));
    input.onDidHide(() => done(undefined));
    wire(done);
    input.show();
  });
}

export interface PickOptions<I extends vscode.QuickPickItem> {
  readonly items: readonly I[];
  readonly placeholder: string;
  readonly active?: I;
  readonly matchOnDescription?: boolean;
  readonly matchOnDetail?: boolean;
  /** Items the user may accept; others (information rows) keep the pick open. Default: all. */
  readonly accept?: (item: I) => boolean;
}

export function pickOne<I extends vscode.QuickPickItem>(f: StepFrame, o: PickOptions<I>): Promise<StepResult<I>> {
  const pick = frame(vscode.window.createQuickPick<I>(), f);
  pick.items = o.items;
  pick.placeholder = o.placeholder;
  pick.matchOnDescription = o.matchOnDescription ?? true;
  pick.matchOnDetail = o.matchOnDetail ?? false;
  if (o.active) {
    pick.activeItems = [o.active];
  }
  return run(pick, (done) => {
    pick.onDidAccept(() => {
      const item = pick.selectedItems[0] ?? pick.activeItems[0];
      if (item && (!o.accept || o.accept(item))) {
        done(item);
      }
    });
  });
}

export interface TextOptions {
  readonly prompt: string;
  readonly placeholder?: string;
  readonly value?: string;
  /** Returns an error message for invalid input, or a non-blocking info message, or undefined. */
  readonly validate?: (value: string) => string | vscode.InputBoxValidationMessage | undefined;
  /** Its tooltip names the model; pressing it resolves to {@link DRAFT_WITH_MODEL}. */
  readonly draftWith?: string;
  /** Shown on Enter with an empty value (the box stays open); absent: empty is accepted. */
  readonly required?: string;
  /** Line breaks show as {@link LINE_BREAK_MARK} in the one-line box. */
  readonly multiline?: boolean;
}

export const LINE_BREAK_MARK = '⏎';

export function markLineBreaks(text: string): string {
  return text.replace(/\r\n?|\n/g, ` ${LINE_BREAK_MARK} `);
}

/** Accepts a ⏎ typed with or without spaces around it. */
export function unmarkLineBreaks(text: string): string {
  return text.replace(new RegExp(` ?${LINE_BREAK_MARK} ?`, 'g'), '\n');
}

export function askText(f: StepFrame, o: TextOptions): Promise<StepResult<string | typeof DRAFT_WITH_MODEL>> {
  const box = frame(vscode.window.createInputBox(), f);
  const model: vscode.QuickInputButton | undefined = o.draftWith ? { iconPath: new vscode.ThemeIcon('sparkle'), tooltip: o.draftWith } : undefined;
  if (model) box.buttons = [...box.buttons, model];
  box.prompt = o.prompt;
  box.placeholder = o.placeholder;
  box.value = o.multiline ? markLineBreaks(o.value ?? '') : (o.value ?? '');
  const check = () => {
    box.validationMessage = o.validate?.(box.value);
  };
  check();
  return run<string | typeof DRAFT_WITH_MODEL, vscode.InputBox>(box, (done) => {
    box.onDidTriggerButton((b) => b === model && done(DRAFT_WITH_MODEL));
    box.onDidChangeValue(check);
    box.onDidAccept(() => {
      const msg =
        o.required !== undefined && !box.value.trim() ? { message: o.required, severity: vscode.InputBoxValidationSeverity.Error } : o.validate?.(box.value);
      const blocking = typeof msg === 'string' || (msg !== undefined && msg.severity === vscode.InputBoxValidationSeverity.Error);
      if (blocking) {
        box.validationMessage = msg;
        return;
      }
      done(o.multiline ? unmarkLineBreaks(box.value) : box.value);
    });
  });
}

/** Each Enter adds an item; Enter on an empty box finishes. @param noun singular, e.g. "decision" */
export async function askList(f: StepFrame, noun: string, items: string[], placeholder: string): Promise<StepResult<string[]>> {
  for (;;) {
    const added = items.length
      ? `Added ${items.length}: ${items.map((s, i) => `${i + 1}. ${s.length > 40 ? `${s.slice(0, 39)}…` : s}`).join('  ')}`
      : `No ${noun}s yet.`;
    const r = await askText(f, {
      // VS Code adds "(Press 'Enter' to confirm …)" to every prompt: ours does not say it again.
      prompt: `${added} One ${noun} at a time; an empty entry goes on to the next step.`,
      placeholder,
    });
    if (r === undefined) {
      return undefined;
    }
    if (r === BACK) {
      return BACK;
    }
    // No "Draft with …" button here: the text is all a list step resolves to.
    const text = typeof r === 'string' ? r.trim() : '';
    if (!text) {
      return items;
    }
    items.push(text);
  }
}
