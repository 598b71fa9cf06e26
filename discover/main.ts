/**
 * The entry of `agc profile discover` (bin/agc.mjs runs it): the command (discover/command.ts) with
 * this process's arguments, environment and output, and its exit status.
 */
import { discoverProfile } from './command';

discoverProfile(process.argv.slice(2), {
  env: process.env,
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
}).then((code) => process.exit(code));
