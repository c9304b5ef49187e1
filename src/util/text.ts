/**
 * The one definition of a control character hestai refuses in names, paths and one-line values: C0, DEL,
 * C1 and the Unicode line and paragraph separators (U+2028, U+2029), which editors and JSON treat as
 * line breaks.
 */
export const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/;

const CONTROL_RUNS = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g;

/** Pure: does `text` contain a control character? */
export function hasControl(text: string): boolean {
  return CONTROL.test(text);
}

/** Pure: `text` with every run of control characters replaced by one space, trimmed. */
export function stripControl(text: string): string {
  return text.replace(CONTROL_RUNS, ' ').trim();
}
