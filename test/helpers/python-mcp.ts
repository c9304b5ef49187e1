import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * The official MCP Python SDK in a virtual environment, installed offline from a folder of wheels
 * (`HESTAI_PYPI_WHEELS`, default /opt/pypi/files: this machine reaches no Python package index). Created
 * once per machine under the temp directory and reused. When python3, venv or the wheels are missing, the
 * answer is the reason to skip, said plainly: the Python client test is then skipped, never faked.
 */
export const PYPI_WHEELS = process.env['HESTAI_PYPI_WHEELS'] ?? '/opt/pypi/files';
export const MCP_WHEEL = 'mcp-2.3.0-py3-none-any.whl';

export type PythonMcp = { python: string; skip: null } | { python: null; skip: string };

export function pythonMcp(): PythonMcp {
  if (!fs.existsSync(path.join(PYPI_WHEELS, MCP_WHEEL))) {
    return {
      python: null,
      skip: `the MCP Python SDK wheel ${MCP_WHEEL} is not in ${PYPI_WHEELS} (set HESTAI_PYPI_WHEELS to a folder holding it and its dependencies)`,
    };
  }
  const venv = path.join(os.tmpdir(), `hestai-mcp-python-${MCP_WHEEL.replace(/\.whl$/, '')}`);
  const python = path.join(venv, 'bin', 'python');
  const ready = path.join(venv, '.hestai-ready');
  if (fs.existsSync(ready)) return { python, skip: null };
  const probe = spawnSync('python3', ['-c', 'import venv, sys; print(sys.version_info >= (3, 10))'], {
    encoding: 'utf8',
  });
  if (probe.error || probe.status !== 0 || probe.stdout.trim() !== 'True')
    return { python: null, skip: 'python3 (3.10 or newer, with venv) is not on PATH' };
  // Build beside the final place, then rename: two runs at once never see a half-installed environment.
  const staging = fs.mkdtempSync(`${venv}.staging-`);
  try {
    const create = spawnSync('python3', ['-m', 'venv', staging], { encoding: 'utf8' });
    if (create.status !== 0)
      return { python: null, skip: `python3 -m venv failed: ${create.stderr.trim().split('\n').at(-1)}` };
    const install = spawnSync(
      path.join(staging, 'bin', 'python'),
      ['-m', 'pip', 'install', '--quiet', '--no-index', '--find-links', PYPI_WHEELS, 'mcp==2.3.0'],
      {
        encoding: 'utf8',
        env: { ...process.env, PIP_DISABLE_PIP_VERSION_CHECK: '1' },
      },
    );
    if (install.status !== 0)
      return {
        python: null,
        skip: `pip could not install mcp from ${PYPI_WHEELS}: ${install.stderr.trim().split('\n').at(-1)}`,
      };
    fs.rmSync(venv, { recursive: true, force: true });
    // Only `python -m ...` is used: the scripts' shebangs (which name the staging path) never run.
    fs.renameSync(staging, venv);
    const check = spawnSync(python, ['-c', 'import mcp.client.stdio'], { encoding: 'utf8' });
    if (check.status !== 0)
      return {
        python: null,
        skip: `the installed MCP Python SDK does not import: ${check.stderr.trim().split('\n').at(-1)}`,
      };
    fs.writeFileSync(ready, 'ok\n');
    return { python, skip: null };
  } finally {
    fs.rmSync(staging, { recursive: true, force: true });
  }
}
