// Members shared by several groups: the machine's floor.
import { ROOT } from '../lib/env.mjs';
import { measureSpawn } from '../lib/measure.mjs';

/** `node -e 0`: starting the runtime and doing nothing, the floor every CLI and hook pays. */
export function nodeNoop(id = 'node-e-0') {
  return {
    id,
    label: 'node -e 0',
    kind: 'baseline',
    measure: () => measureSpawn(process.execPath, ['-e', '0'], { cwd: ROOT }),
  };
}
