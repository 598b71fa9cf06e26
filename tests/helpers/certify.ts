/** What the certification tests share: a temporary folder, quick settings, known tokens, and tampering with a copy. */
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from '@playwright/test';
import type { KitRun } from './harness';

export const tmp = () => mkdtempSync(path.join(os.tmpdir(), 'agc-certify-'));

/** Known reference tokens, so that the test can look for them in everything the certification wrote. */
export const TOKENS = {
  AG_REF_TOKEN: 'ref-certify-primary-0123456789abcdef',
  AG_REF_TOKEN_OTHER_USER: 'ref-certify-other-0123456789abcdef',
  AG_REF_TOKEN_CHANNEL_A: 'ref-certify-chan-a-0123456789abcdef',
  AG_REF_TOKEN_CHANNEL_B: 'ref-certify-chan-b-0123456789abcdef',
};
export const quick = { AG_VISIBILITY_TIMEOUT_MS: '5000', AG_REQUEST_TIMEOUT_MS: '3000', AG_NUM_RUNS: '5' };

export const pem = (key: { export(o: { type: 'pkcs8' | 'spki'; format: 'pem' }): string | Buffer }, type: 'pkcs8' | 'spki') =>
  String(key.export({ type, format: 'pem' }));

/** Copies a certification folder, so each tampering starts from the intact one. */
export function copyOf(dir: string): string {
  const copy = path.join(tmp(), 'cert');
  cpSync(dir, copy, { recursive: true });
  return copy;
}

/** Changes one byte of a file: the first occurrence of `from` (one character) after `marker` becomes `to`. */
export function changeOneByte(file: string, marker: string, to: string): void {
  const text = readFileSync(file, 'utf8');
  const at = text.indexOf(marker);
  expect(at, `${marker} in ${file}`).toBeGreaterThanOrEqual(0);
  const i = at + marker.length;
  expect(text[i]).not.toBe(to);
  writeFileSync(file, `${text.slice(0, i)}${to}${text.slice(i + 1)}`);
}

export const mismatches = (run: KitRun) => run.stdout.split('\n').filter((line) => line.startsWith('mismatch: '));
