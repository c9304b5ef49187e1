const HTML: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** The Unicode bidi controls (U+202A-U+202E, U+2066-U+2069, U+200E, U+200F): they can reorder what a reader sees. */
const BIDI = /[\u202a-\u202e\u2066-\u2069\u200e\u200f]/g;

/** Pure: each bidi control shown as a visible escape (`\u202E`), so a header reads in the order git stores it. */
export function showBidi(text: string): string {
  return text.replace(BIDI, (c) => `\\u${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

/** Pure: text (anything from git: messages, names, reasons, paths) made safe for HTML text and attributes. */
export function escapeHtml(text: string): string {
  return showBidi(text).replace(/[&<>"']/g, (c) => HTML[c]!);
}

/** Pure: a repository path as a URL path (each segment percent-encoded). */
export function encodePath(path: string): string {
  return path.split('/').map(encodeURIComponent).join('/');
}

/** Pure: text for one markdown table cell: no HTML, no line break, no cell break, no link or emphasis syntax. */
export function escapeMarkdownCell(text: string): string {
  return escapeHtml(text.replace(/\s+/g, ' ').trim()).replace(/[|\\`*_[\]()#!~]/g, (c) => `\\${c}`);
}
