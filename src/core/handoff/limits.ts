/**
 * Size limits of handoff text (each refused with a message naming the field). Shared by
 * the request schema, the panel's draft and the webview.
 */

/** Longest summary accepted: 200,000 characters (a handoff is a briefing, not a transcript). */
export const MAX_SUMMARY_CHARS = 200_000;
/** Longest list item (decision, next step, …) accepted: 20,000 characters. */
export const MAX_ITEM_CHARS = 20_000;
/** Most items in one list: 1,000. */
export const MAX_LIST_ITEMS = 1_000;
/** Longest one-line field (topic, from, return condition …): 2,000 characters; keeps the frontmatter small. */
export const MAX_LINE_CHARS = 2_000;
/** Most text a request may carry in all (summary, lists, turns): 1,000,000 characters. */
export const MAX_REQUEST_CHARS = 1_000_000;
