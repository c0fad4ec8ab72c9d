// Copilot CLI's todo list, kept through its `sql` tool in a table `todos (id, title, description, status)`, status
// `pending` / `in_progress` / `done` / `blocked`. Read statements: `INSERT [OR REPLACE | OR IGNORE] INTO todos (…)
// VALUES (…), … [ON CONFLICT(id) DO UPDATE SET …]`, `UPDATE todos SET status = '…'[, title = '…'] WHERE id = '…' | id IN
// (…)`, `DELETE FROM todos WHERE …`; anything else changes nothing. The list starts from the remembered plan.
import type { PlanItemStatus, SessionPlan } from '../../../core/session/events';
import { planOf, planStatus } from './planTools';

/** A quoted string (`''` an escaped quote), or a bare word or number. */
const VALUE = /'((?:[^']|'')*)'|([^\s,()']+)/y;

/** Split at `;` outside quoted strings. */
function statements(sql: string): string[] {
  const out: string[] = [];
  let from = 0;
  let quoted = false;
  for (let i = 0; i < sql.length; i++) {
    if (sql[i] === "'") quoted = !quoted;
    else if (sql[i] === ';' && !quoted) {
      out.push(sql.slice(from, i));
      from = i + 1;
    }
  }
  out.push(sql.slice(from));
  return out.map((s) => s.trim()).filter(Boolean);
}

/** `(a, 'b'), (c, 'd')` from the start of `text`, until anything else. */
function tuples(text: string): string[][] {
  const rows: string[][] = [];
  let i = 0;
  const skip = () => {
    while (i < text.length && /\s/.test(text[i])) i++;
  };
  for (;;) {
    skip();
    if (text[i] !== '(') return rows;
    i++;
    const row: string[] = [];
    for (;;) {
      skip();
      VALUE.lastIndex = i;
      const m = VALUE.exec(text);
      if (!m) return rows;
      row.push(m[1] !== undefined ? m[1].replace(/''/g, "'") : m[2]);
      i = VALUE.lastIndex;
      skip();
      if (text[i] === ',') i++;
      else if (text[i] === ')') break;
      else return rows;
    }
    i++;
    rows.push(row);
    skip();
    if (text[i] === ',') i++;
    else return rows;
  }
}

/** Undefined for any condition other than `id = 'x'` or `id IN ('x', 'y')`. */
function whereIds(where: string): string[] | undefined {
  const one = /^id\s*=\s*'((?:[^']|'')*)'\s*$/i.exec(where);
  if (one) return [one[1].replace(/''/g, "'")];
  const many = /^id\s+IN\s*(\([\s\S]*\))\s*$/i.exec(where);
  return many ? tuples(many[1])[0] : undefined;
}

export class CopilotCliTodos {
  private readonly items = new Map<string, { text: string; status: PlanItemStatus }>();

  constructor(previous?: SessionPlan) {
    previous?.items.forEach((it, i) => this.items.set(it.id ?? String(i + 1), { text: it.text, status: it.status }));
  }

  /** The list after one `sql` call's query, or undefined when it did not change `todos`. */
  apply(query: unknown, time?: string): SessionPlan | undefined {
    if (typeof query !== 'string' || !/\btodos\b/i.test(query)) return undefined;
    let changed = false;
    for (const st of statements(query)) changed = this.statement(st) || changed;
    if (!changed) return undefined;
    const plan = planOf('sql', [...this.items.values()], time ? { time } : {});
    return plan && { ...plan, items: plan.items.map((it, i) => ({ ...it, id: [...this.items.keys()][i] })) };
  }

  private statement(st: string): boolean {
    const insert = /^INSERT\s+(?:OR\s+(?:REPLACE|IGNORE)\s+)?INTO\s+todos\s*\(([^)]*)\)\s*VALUES\s*([\s\S]*)$/i.exec(st);
    if (insert) {
      const cols = insert[1].split(',').map((c) => c.trim().toLowerCase());
      let changed = false;
      for (const row of tuples(insert[2])) {
        const get = (c: string) => (cols.indexOf(c) >= 0 ? row[cols.indexOf(c)] : undefined);
        const id = get('id');
        const text = get('title') ?? get('description');
        if (!id || !text) continue;
        this.items.set(id, { text, status: planStatus(get('status') ?? 'pending') });
        changed = true;
      }
      return changed;
    }
    const update = /^UPDATE\s+todos\s+SET\s+([\s\S]*?)\s+WHERE\s+([\s\S]*)$/i.exec(st);
    if (update) {
      const ids = whereIds(update[2]);
      const status = /\bstatus\s*=\s*'([^']*)'/i.exec(update[1])?.[1];
      const title = /\btitle\s*=\s*'((?:[^']|'')*)'/i.exec(update[1])?.[1]?.replace(/''/g, "'");
      let changed = false;
      for (const id of ids ?? []) {
        const item = this.items.get(id);
        if (!item) continue;
        this.items.set(id, { text: title ?? item.text, status: status !== undefined ? planStatus(status) : item.status });
        changed = true;
      }
      return changed;
    }
    const del = /^DELETE\s+FROM\s+todos\s+WHERE\s+([\s\S]*)$/i.exec(st);
    if (del) return (whereIds(del[1]) ?? []).map((id) => this.items.delete(id)).some(Boolean);
    return false;
  }
}
