import path from 'node:path';
import type { FullConfig, FullResult, Reporter, Suite, TestCase, TestError, TestResult } from '@playwright/test/reporter';
import { stripAnsi } from '../facts/read';
import { guardConsole } from './collect';

const MARK: Record<string, string> = { passed: '✓', skipped: '-', failed: '✘', timedOut: '✘', interrupted: '✘' };

/** Playwright's own way of saying how long: 17ms, 1.2s, 1.5m. */
function duration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)}ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)}s`;
  return `${(ms / 60_000).toFixed(1)}m`;
}

/**
 * The run on the console, as Playwright's `list` shows it (a line per test, then each failure's message, then the counts),
 * but by each test's status: a failed test is a failure here whatever Playwright expected of it. Text reaches the console
 * through the kit's console guard (reporters/collect.ts): secrets redacted, workflow commands broken.
 */
export default class ConsoleReporter implements Reporter {
  private root = process.cwd();
  private done = 0;
  private readonly failed: { test: TestCase; result: TestResult }[] = [];
  private readonly counts = { passed: 0, failed: 0, skipped: 0, interrupted: 0 };
  private total = 0;

  constructor() {
    guardConsole();
  }

  printsToStdio(): boolean {
    return true;
  }

  onBegin(config: FullConfig, suite: Suite): void {
    this.root = config.configFile ? path.dirname(config.configFile) : config.rootDir;
    this.total = suite.allTests().length;
    // A run that never got to its tests (a global setup that failed) has its error to say, and no count.
    if (!this.total) return;
    const workers = Math.min(config.workers, this.total);
    const shard = config.shard ? `, shard ${config.shard.current} of ${config.shard.total}` : '';
    console.log(`\nRunning ${this.total} test${this.total === 1 ? '' : 's'} using ${workers} worker${workers === 1 ? '' : 's'}${shard}\n`);
  }

  onStdOut(chunk: string | Buffer): void {
    process.stdout.write(chunk);
  }

  onStdErr(chunk: string | Buffer): void {
    process.stderr.write(chunk);
  }

  onError(error: TestError): void {
    console.log(stripAnsi(error.stack ?? error.message ?? error.value ?? 'an unknown error'));
  }

  onTestEnd(test: TestCase, result: TestResult): void {
    const status = result.status;
    if (status === 'passed' || status === 'skipped') this.counts[status]++;
    else if (status === 'interrupted') this.counts.interrupted++;
    else {
      this.counts.failed++;
      this.failed.push({ test, result });
    }
    const time = status === 'skipped' ? '' : ` (${duration(result.duration)}${status === 'timedOut' ? ', timed out' : ''})`;
    console.log(`  ${MARK[status] ?? '?'}  ${++this.done} ${this.titleOf(test)}${time}`);
  }

  onEnd(result: FullResult): void {
    this.failed.forEach(({ test, result: r }, i) => {
      console.log(`\n  ${i + 1}) ${this.titleOf(test)}\n`);
      const message = r.errors.map((e) => e.message ?? e.value ?? '').join('\n\n') || `the test ${r.status === 'timedOut' ? 'timed out' : 'failed'}`;
      console.log(
        stripAnsi(message)
          .split('\n')
          .map((line) => `    ${line}`)
          .join('\n'),
      );
    });
    if (!this.total) return;
    const lines = [''];
    if (this.counts.failed) lines.push(`  ${this.counts.failed} failed`, ...this.failed.map(({ test }) => `    ${this.titleOf(test)}`));
    if (this.counts.interrupted) lines.push(`  ${this.counts.interrupted} interrupted`);
    const notRun = this.total - this.done;
    if (notRun > 0) lines.push(`  ${notRun} did not run`);
    if (this.counts.skipped) lines.push(`  ${this.counts.skipped} skipped`);
    lines.push(`  ${this.counts.passed} passed (${duration(result.duration)})`);
    console.log(lines.join('\n'));
  }

  private titleOf(test: TestCase): string {
    const { file, line, column } = test.location;
    // titlePath: the root, the project and the file, then the describes and the test.
    return [`${path.relative(this.root, file)}:${line}:${column}`, ...test.titlePath().slice(3)].join(' › ');
  }
}
