export { gatherReport, type ReportOptions } from './gather.js';
export { buildReport } from './build.js';
export { renderHtml } from './html.js';
export { renderMarkdown } from './markdown.js';
export type { ReportData } from './model.js';
