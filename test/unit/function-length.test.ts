import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../helpers/git-repo.js';

// Issue 38 item 4: a reader can hold every function in src/ at once. No function-like node (declaration,
// method, accessor, constructor, arrow function, function expression) spans more than MAX_LINES lines,
// counted from its first token to its last, nested functions included.
const MAX_LINES = 120;

interface FunctionLength {
  file: string;
  line: number;
  name: string;
  lines: number;
}

function nameOf(node: ts.FunctionLikeDeclaration): string {
  if (node.name && !ts.isComputedPropertyName(node.name)) return node.name.getText();
  if (ts.isConstructorDeclaration(node)) return 'constructor';
  const parent = node.parent;
  if ((ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent)) && parent.name)
    return parent.name.getText();
  if (ts.isCallExpression(parent)) return `(argument of ${parent.expression.getText().slice(0, 40)})`;
  return '(anonymous)';
}

function functionLengths(file: string, text: string): FunctionLength[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const found: FunctionLength[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isFunctionLike(node) && 'body' in node && node.body) {
      const fn = node as ts.FunctionLikeDeclaration;
      const start = source.getLineAndCharacterOfPosition(fn.getStart(source)).line;
      const end = source.getLineAndCharacterOfPosition(fn.getEnd()).line;
      found.push({ file, line: start + 1, name: nameOf(fn), lines: end - start + 1 });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

function sourceFiles(dir: string): string[] {
  return fs
    .readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts'))
    .map((entry) => path.join(entry.parentPath, entry.name))
    .sort();
}

describe('function length in src/', () => {
  it('counts every function-like node, nested ones inside their parent, by first and last line', () => {
    const text = [
      'export function outer(a: number) {', // 1
      '  const inner = (b: number) => {', // 2
      '    return b + 1;', // 3
      '  };', // 4
      '  return inner(a);', // 5
      '}', // 6
      'class Box {', // 7
      '  constructor() {}', // 8
      '  get size() { return 1; }', // 9
      '  open(): void {', // 10
      '    [1].map(function (x) {', // 11
      '      return x;', // 12
      '    });', // 13
      '  }', // 14
      '}', // 15
      'declare function bare(): void;', // 16: no body, not counted
      'const table = { pick: () => 1 };', // 17
    ].join('\n');
    const found = functionLengths('x.ts', text).map(({ line, name, lines }) => `${line} ${name} ${lines}`);
    expect(found).toEqual([
      '1 outer 6',
      '2 inner 3',
      '8 constructor 1',
      '9 size 1',
      '10 open 5',
      '11 (argument of [1].map) 3',
      '17 pick 1',
    ]);
  });

  it(`has no function over ${MAX_LINES} lines`, () => {
    const src = path.join(PROJECT_ROOT, 'src');
    const long = sourceFiles(src)
      .flatMap((file) => functionLengths(path.relative(PROJECT_ROOT, file), fs.readFileSync(file, 'utf8')))
      .filter((fn) => fn.lines > MAX_LINES)
      .map((fn) => `${fn.file}:${fn.line} ${fn.name} ${fn.lines}`);
    expect(long).toEqual([]);
  });
});
