/** A codebase structure summary computed from the tracked file list (no file is opened). */
export interface StructureSummary {
  /** How the list was obtained. */
  tool: 'git ls-files';
  tracked_files: number;
  top_directories: { path: string; files: number }[];
  extensions: { ext: string; files: number }[];
  root_files: string[];
}

function top<K extends string>(
  counts: Map<string, number>,
  limit: number,
  key: K,
): ({ files: number } & Record<K, string>)[] {
  return [...counts.entries()]
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))
    .slice(0, limit)
    .map(([name, files]) => ({ [key]: name, files }) as { files: number } & Record<K, string>);
}

/** Pure: counts per top-level directory and per extension, and the files at the root. */
export function summarizeStructure(files: readonly string[]): StructureSummary {
  const dirs = new Map<string, number>();
  const exts = new Map<string, number>();
  const rootFiles: string[] = [];
  for (const file of files) {
    const slash = file.indexOf('/');
    if (slash === -1) rootFiles.push(file);
    else {
      const dir = `${file.slice(0, slash)}/`;
      dirs.set(dir, (dirs.get(dir) ?? 0) + 1);
    }
    const base = file.slice(file.lastIndexOf('/') + 1);
    const dot = base.lastIndexOf('.');
    const ext = dot > 0 ? base.slice(dot).toLowerCase() : '(none)';
    exts.set(ext, (exts.get(ext) ?? 0) + 1);
  }
  return {
    tool: 'git ls-files',
    tracked_files: files.length,
    top_directories: top(dirs, 15, 'path'),
    extensions: top(exts, 10, 'ext'),
    root_files: rootFiles.sort().slice(0, 30),
  };
}
