/** A Markdown code span (CommonMark §6.1) that survives backticks inside the text. */
export function codeSpan(text: string): string {
  // Most paths hold no backtick or line break: the span is the text in single backticks (what the general case gives them).
  if (!/[\r\n`]/.test(text)) return `\`${text}\``;
  const visible = text.replace(/\r/g, '\\r').replace(/\n/g, '\\n');
  const runs = visible.match(/`+/g) ?? [];
  const fence = '`'.repeat(Math.max(0, ...runs.map((r) => r.length)) + 1);
  const pad = visible.startsWith('`') || visible.endsWith('`') ? ' ' : '';
  return `${fence}${pad}${visible}${pad}${fence}`;
}
