import { formatCount } from './limits';

/** Cut at the last space within `max` (mid-word only for a word over half of it), marked `…`. */
export function clipText(text: string, max: number): string {
  const chars = [...text];
  if (chars.length <= max) return text;
  const head = chars.slice(0, Math.max(1, max - 1)).join('');
  const space = head.search(/\s\S*$/);
  return `${(space >= max / 2 ? head.slice(0, space) : head).trimEnd()}…`;
}

export function plural(n: number, one: string, many = `${one}s`): string {
  return `${formatCount(n)} ${n === 1 ? one : many}`;
}
