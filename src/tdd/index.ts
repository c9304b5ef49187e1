export { parseConventionalHeader, type ConventionalHeader } from './header.js';
export { cleanMessage, messageHeader, scissorsLine, type MessageOptions } from './message.js';
export { appendTrailers, lastTrailer, parseTrailers, type Trailer } from './trailers.js';
export { commitFacts, type CommitFacts, type CommitInput } from './commit.js';
export { testFileMatcher } from './test-files.js';
export { checkHeader } from './header-rule.js';
export { evaluateTestFirst, type TddOptions, type TddPolicy, type TddVerdict } from './rule.js';
export type { Verdict } from './verdict.js';
