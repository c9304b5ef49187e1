const HTML: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Pure: text (anything from git: messages, names, reasons, paths) made safe for HTML text and attributes. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => HTML[c]!);
}

/** Pure: a repository path as a URL path (each segment percent-encoded). */
export function encodePath(path: string): string {
  return path.split('/').map(encodeURIComponent).join('/');
}

/** Pure: text for one markdown table cell: no HTML, no line break, no cell break, no link or emphasis syntax. */
export function escapeMarkdownCell(text: string): string {
  return escapeHtml(text.replace(/\s+/g, ' ').trim()).replace(/[|\\`*_[\]()#!~]/g, (c) => `\\${c}`);
}
