// Deep-tier validation of a whole RAPH v4.0 vector in-process (library call from dist/index.js), absolute.
import fs from 'node:fs';
import { pathToFileURL } from 'node:url';
import path from 'node:path';
import { ROOT } from '../lib/env.mjs';
import { fullVector, makeRepo } from '../lib/hestai.mjs';
import { measureInProcess } from '../lib/measure.mjs';

/** Loads `validateVector` and `makeCtxProbe` from the package root export, else from their modules in dist/. */
async function loadValidator() {
  const load = async (f) => {
    const file = path.join(ROOT, 'dist', f);
    return fs.existsSync(file) ? import(pathToFileURL(file).href) : {};
  };
  const root = await load('index.js');
  const validateVector = root.validateVector ?? (await load('anchor/validate.js')).validateVector;
  const makeCtxProbe = root.makeCtxProbe ?? (await load('anchor/ctx-probe.js')).makeCtxProbe;
  return typeof validateVector === 'function' && typeof makeCtxProbe === 'function'
    ? { validateVector, makeCtxProbe }
    : null;
}

export default function deepGroup() {
  let api;
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
        label: 'validate a whole RAPH vector at tier deep, CTX probed on disk (in-process)',
        kind: 'case',
        async skip() {
          api = await loadValidator();
          return api ? null : 'not built yet: validateVector / makeCtxProbe are not in dist/';
        },
        prepare() {
          repo = makeRepo('none');
          vector = fullVector('implementation-lead', {
            phase: 'B1',
            branch: 'feat/bench[0↑0↓]',
            files: '0[]',
            focus: 'bench',
          });
        },
        // A fresh probe per call, so every CTX path is resolved and its lines counted on disk each time.
        measure: () =>
          measureInProcess(() => {
            const result = api.validateVector(vector, {
              role: 'implementation-lead',
              strictness: 'deep',
              probe: api.makeCtxProbe(repo.repo),
            });
            if (!result.ok) throw new Error(`deep validation failed: ${result.errors.join('; ')}`);
            return result;
          }),
        cleanup: () => repo && fs.rmSync(repo.base, { recursive: true, force: true }),
      },
    ],
    absolute: [{ case: 'deep-validate', metric: 'wall', budget: { op: '<', limit: 5 } }],
  };
}
