export {
  verifyRange,
  verifyStream,
  type VerifyInput,
  type VerifyReport,
  type CommitReport,
  type VerifySink,
  type VerifyStart,
  type VerifySummary,
} from './verify.js';
export {
  githubWriter,
  jsonWriter,
  textWriter,
  verifyGithub,
  verifyJson,
  verifyText,
  type VerifyWriter,
} from './format.js';
export { resolveRange, type VerifyRange } from './range.js';
export { checkBypass, checkClock, checkTrailers } from './trailer-rules.js';
export { redGreenVerdict, runAtCommit } from './red-green.js';
