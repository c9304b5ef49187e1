/**
 * Compiles a path glob to a regular expression (the subset test globs use: `**`, `*`, `?`, `{a,b}`,
 * `[...]`; dot files match). Small and dependency-free because the commit-msg hook compiles the globs on
 * every commit; a unit test checks it against picomatch.
 */
export function globToRegExp(glob: string): RegExp {
  let re = '';
  let braces = 0;
  for (let i = 0; i < glob.length; i++) {
    const ch = glob[i]!;
    if (ch === '*') {
      if (glob[i + 1] === '*') {
        const atStart = i === 0 || glob[i - 1] === '/';
        const atEnd = i + 2 === glob.length;
        if (atStart && glob[i + 2] === '/') {
          re += '(?:[^/]+/)*'; // `**/`: zero or more whole segments
          i += 2;
          continue;
        }
        if (atStart && atEnd) {
          re += '.*';
          i += 1;
          continue;
        }
      }
      re += '[^/]*';
      // Stryker disable next-line all: equivalent; it only keeps `a**b` from compiling to two `[^/]*` in a row.
      while (glob[i + 1] === '*') i++;
    } else if (ch === '?') re += '[^/]';
    else if (ch === '{') {
      braces++;
      re += '(?:';
    } else if (ch === '}' && braces > 0) {
      braces--;
      re += ')';
    } else if (ch === ',' && braces > 0) re += '|';
    else if (ch === '[') {
      const end = glob.indexOf(']', i + 1);
      if (end === -1) re += '\\[';
      else {
        re += `[${glob
          .slice(i + 1, end)
          .replace(/^!/, '^')
          .replace(/\\/g, '\\\\')}]`;
        i = end;
      }
    } else re += ch.replace(/[.+^$()|\\/]/g, '\\$&');
  }
  if (glob.endsWith('/**')) re = `${re.slice(0, -'\\/.*'.length)}(?:\\/.*)?`;
  return new RegExp(`^${re}$`);
}
