import path from 'node:path';

// Where builds before issue 27 kept their caches (config, protocol, anchor, git history), for the attack tests
// that plant forged entries there: hestai no longer reads or writes anything in that directory, so whatever is
// planted must change no verdict.

/** The user cache directory earlier builds used: `$XDG_CACHE_HOME/hestai`, else `$HOME/.cache/hestai`. */
export function formerCacheDir(env: NodeJS.ProcessEnv): string {
  const xdg = env['XDG_CACHE_HOME'];
  if (xdg && path.isAbsolute(xdg)) return path.join(xdg, 'hestai');
  return path.join(env['HOME']!, '.cache', 'hestai');
}

/**
 * The file name earlier builds gave a cache entry for a text (28 hex digits: two 53-bit multiplicative
 * hashes of its UTF-16 code units), exactly as they computed it, so a planted entry sits where they read.
 */
export function textKey(text: string): string {
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  let h3 = 0x9e3779b9;
  let h4 = 0x85ebca6b;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 2654435761);
    h2 = Math.imul(h2 ^ c, 1597334677);
    h3 = Math.imul(h3 ^ c, 2246822507);
    h4 = Math.imul(h4 ^ c, 3266489909);
  }
  const mix = (a: number, b: number) => {
    let x = Math.imul(a ^ (a >>> 16), 2246822507) ^ Math.imul(b ^ (b >>> 13), 3266489909);
    let y = Math.imul(b ^ (b >>> 16), 2246822507) ^ Math.imul(a ^ (a >>> 13), 3266489909);
    x >>>= 0;
    y >>>= 0;
    return ((y & 0x1fffff) * 0x100000000 + x).toString(16).padStart(14, '0');
  };
  return `${mix(h1, h2)}${mix(h3, h4)}`;
}
