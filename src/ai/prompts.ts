import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** A versioned prompt (SS-I5: prompts are versioned and auditable). */
export interface Prompt {
  name: string;
  version: string;
  text: string;
  /** `package` (shipped in `prompts/`) or `user` (`~/.hestai/prompts/<name>.txt`). */
  source: 'package' | 'user';
  file: string;
}

/** Pure: reads the `# key: value` header lines of a prompt file; null without a `version`. */
export function parsePromptFile(text: string): { version: string; text: string } | null {
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  let version: string | null = null;
  let i = 0;
  for (; i < lines.length && lines[i]!.startsWith('#'); i++) {
    const header = /^#\s*version\s*:\s*(\S+)\s*$/i.exec(lines[i]!);
    if (header) version = header[1]!;
  }
  const body = lines.slice(i).join('\n').trim();
  return version === null || body === '' ? null : { version, text: body };
}

/** The `prompts/` directory shipped with the package (next to `dist/` and `src/`). */
export function packagePromptsDir(): string {
  return path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../prompts');
}

/**
 * Loads a prompt: `~/.hestai/prompts/<name>.txt` overrides the packaged `prompts/<name>.txt`. An override
 * without a version header is ignored (reported in `warnings`), so every prompt used has a version.
 */
export function loadPrompt(name: string, home: string | undefined, warnings: string[] = []): Prompt {
  if (home) {
    const file = path.join(home, '.hestai', 'prompts', `${name}.txt`);
    let text: string | null = null;
    try {
      text = fs.readFileSync(file, 'utf8');
    } catch {
      text = null;
    }
    if (text !== null) {
      const parsed = parsePromptFile(text);
      if (parsed) return { name, ...parsed, source: 'user', file };
      warnings.push(`${file} has no "# version: X" header; using the packaged prompt`);
    }
  }
  const file = path.join(packagePromptsDir(), `${name}.txt`);
  const parsed = parsePromptFile(fs.readFileSync(file, 'utf8'));
  if (!parsed) throw new Error(`packaged prompt ${file} has no version header`);
  return { name, ...parsed, source: 'package', file };
}
