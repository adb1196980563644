// Small process helpers for the set-up scripts. Node built-ins only: they run before `npm install`.
import { spawn, spawnSync } from 'node:child_process';

/** Runs a command with inherited stdio; resolves with its exit code. */
export function run(command, args, options = {}) {
  return new Promise((resolve) => {
    const child = spawn(command, args, { stdio: 'inherit', ...options });
    child.on('error', (error) => {
      console.error(`${command}: ${error.message}`);
      resolve(127);
    });
    child.on('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
}

/** Runs a command and throws when it fails. */
export async function mustRun(command, args, options = {}) {
  const code = await run(command, args, options);
  if (code !== 0) throw new Error(`\`${[command, ...args].join(' ')}\` failed with exit code ${code}`);
}

/** True when an executable is on PATH. */
export function hasCommand(name) {
  return spawnSync('sh', ['-c', `command -v ${name}`], { stdio: 'ignore' }).status === 0;
}

export const npmCommand = process.platform === 'win32' ? 'npm.cmd' : 'npm';

/** Minutes and seconds since `start`, for the closing lines. */
export function elapsed(start) {
  const seconds = Math.round((Date.now() - start) / 1000);
  return `${Math.floor(seconds / 60)}m${String(seconds % 60).padStart(2, '0')}s`;
}
