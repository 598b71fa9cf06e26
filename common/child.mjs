// @ts-check
/**
 * Runs one of the kit's Node programs as a child, as the CLI and `agc certify` do: its output is the
 * user's, and Ctrl-C (or a SIGTERM to the parent) reaches it as SIGINT, since SIGTERM would orphan
 * Playwright's webServer.
 */
import { spawn } from 'node:child_process';
import { EXIT, SIGNALLED } from './exit-codes.mjs';

/**
 * @param {string} script a script run by this Node
 * @param {string[]} args
 * @param {NodeJS.ProcessEnv} env
 * @param {string} cwd
 * @param {string[]} [nodeOptions] options of Node itself, before the script (`--import` of a loader)
 * @returns {Promise<{ code: number; interrupted: boolean }>} the child's exit status, and whether the parent was asked to stop meanwhile
 */
export function runChild(script, args, env, cwd, nodeOptions = []) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [...nodeOptions, script, ...args], { cwd, env, stdio: 'inherit' });
    let interrupted = false;
    const forward = () => {
      interrupted = true;
      child.kill('SIGINT');
    };
    process.on('SIGINT', forward);
    process.on('SIGTERM', forward);
    child.on('close', (code, signal) => {
      process.off('SIGINT', forward);
      process.off('SIGTERM', forward);
      resolve({ code: code ?? (signal ? SIGNALLED : EXIT.error), interrupted });
    });
  });
}
