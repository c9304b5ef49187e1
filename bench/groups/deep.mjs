// Deep-tier validation of a whole RAPH v4.0 vector in-process (library call from dist/index.js), absolute.
import fs from 'node:fs';
import { pathToFileURL } from 'node:url';
import path from 'node:path';
import { ROOT } from '../lib/env.mjs';
import { fullVector, makeRepo } from '../lib/hestai.mjs';
import { measureInProcess } from '../lib/measure.mjs';

const CANDIDATES = ['validateRaphVector', 'validateVector', 'validateRaph', 'validateAnchorVector'];

export default function deepGroup() {
  let lib;
  let validate;
  let repo;
  let vector;
  return {
    id: 'deep',
    title: 'deep-tier validation in-process',
    warmups: (opts) => (opts.quick ? 20 : 200),
    iterations: (opts) => (opts.quick ? 50 : 500),
    members: [
      {
        id: 'deep-validate',
        label: 'validate a RAPH vector at tier deep (in-process)',
        kind: 'case',
        async skip() {
          const entry = path.join(ROOT, 'dist/index.js');
          if (!fs.existsSync(entry)) return 'not built yet: dist/index.js is missing';
          lib = await import(pathToFileURL(entry).href);
          const name = CANDIDATES.find((n) => typeof lib[n] === 'function');
          if (!name) return `not built yet: dist/index.js exports none of ${CANDIDATES.join(', ')}`;
          validate = lib[name];
          return null;
        },
        prepare() {
          repo = makeRepo('none');
          vector = fullVector('implementation-lead', { phase: 'B1', branch: 'feat/bench[0↑0↓]', files: '0[]', focus: 'bench' });
        },
        measure: () =>
          measureInProcess(async () => {
            const result = await validate(vector, { tier: 'deep', role: 'implementation-lead', cwd: repo.repo });
            if (result && result.validated === false && result.errors?.length) throw new Error(`deep validation failed: ${result.errors.join('; ')}`);
            return result;
          }),
        cleanup: () => repo && fs.rmSync(repo.base, { recursive: true, force: true }),
      },
    ],
    absolute: [{ case: 'deep-validate', metric: 'wall', budget: { op: '<', limit: 5 } }],
  };
}
