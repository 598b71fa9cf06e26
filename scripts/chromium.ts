/**
 * Debian's chromium, as the kit opens its HTML pages in a real browser (the docs' pictures, the report and compare
 * tests): no browser can be downloaded on the kit's machines, Debian's can be installed (.ci/run does).
 */
import { existsSync } from 'node:fs';
import { chromium, type Browser } from '@playwright/test';

export const CHROMIUM = '/usr/bin/chromium';
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

export const chromiumInstalled = (): boolean => existsSync(CHROMIUM);

export const launchChromium = (): Promise<Browser> => chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
