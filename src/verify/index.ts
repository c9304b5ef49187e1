export { verifyRange, type VerifyInput, type VerifyReport, type CommitReport } from './verify.js';
export { verifyGithub, verifyJson, verifyText } from './format.js';
export { resolveRange, type VerifyRange } from './range.js';
export { checkBypass, checkClock, checkTrailers } from './trailer-rules.js';
export { redGreenVerdict, runAtCommit } from './red-green.js';
