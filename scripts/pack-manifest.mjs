// npm's prepack/postpack around the tarball's package.json. `strip` (prepack) writes the manifest without
// `scripts`: none is for the projects that install hestai-hooks, and npm 11 warns of a packed `prepare`
// ("install scripts not yet covered by allowScripts") although npm never runs it for a tarball. The checkout's
// own package.json is kept beside it and put back by `restore` (postpack; npm takes postpack from the manifest
// it read before prepack). A pack interrupted between the two is put back by the next `strip`.
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';

const manifest = new URL('../package.json', import.meta.url);
const kept = new URL('../package.json.prepack', import.meta.url);

function restore() {
  if (existsSync(kept)) renameSync(kept, manifest);
}

const verb = process.argv[2];
if (verb === 'restore') restore();
else if (verb === 'strip') {
  restore();
  const text = readFileSync(manifest, 'utf8');
  const { scripts: _scripts, ...packed } = JSON.parse(text);
  writeFileSync(kept, text);
  writeFileSync(manifest, `${JSON.stringify(packed, null, 2)}\n`);
} else {
  process.stderr.write('usage: node scripts/pack-manifest.mjs strip|restore\n');
  process.exit(2);
}
