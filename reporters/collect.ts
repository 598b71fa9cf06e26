import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { rebased } from '../client/curl';
import { redactText, secretPattern, secretsFromEnv } from '../client/redact';
import { guardConsoleText, oneLine } from '../client/safe-text';
import type { FullConfig, FullResult, Reporter, Suite, TestCase, TestError, TestResult } from '@playwright/test/reporter';
import { readRunError, readTest, TargetTextBudget, type RecordedTest } from '../facts/read';
import { reportSettingsOf, type ReportSettings } from '../config';
import { findingOutcomes, outcomeOf, summarize, type ConformanceSummary, type Outcome, type RunFacts } from './verdict';
import { loadWaivers } from './waivers';
import { loadBaseline, BaselineError, type Baseline } from './baseline';
import { loadCatalogue } from '../schemas/requirements';

/**
 * What every output reporter shares: it reads each test through the run-facts protocol
 * (facts/read.ts) and hands the outcomes to `summarize`. Subclasses only write their file.
 */
export abstract class ConformanceReporter implements Reporter {
  private readonly outcomes = new Map<string, Outcome>();
  private outputDirs: string[] = [];
  private readonly facts: RunFacts = {
    lagsMs: [],
    neverVisible: 0,
    retries: { 429: 0, 503: 0 },
    startedAt: new Date().toISOString(),
    finishedAt: '',
    runErrors: [],
  };
  /** Set in onBegin, from the configuration the run resolved (config/index.ts). */
  private settings: ReportSettings | undefined;
  private baseline: Baseline | undefined;
  private budget: TargetTextBudget | undefined;
  /** Test files are named relative to the kit's root, the folder of the Playwright config. */
  private root = process.cwd();

  constructor() {
    guardConsole();
  }

  /** The report directory, from the run's configuration (AG_REPORT_DIR, `agc run --report-dir`). */
  protected get reportDir(): string {
    if (!this.settings) throw new Error('the conformance reporter was not begun: its settings come with onBegin');
    return this.settings.reportDir;
  }

  /** The run's report settings (config/index.ts), once begun. */
  protected get reportSettings(): ReportSettings {
    if (!this.settings) throw new Error('the conformance reporter was not begun: its settings come with onBegin');
    return this.settings;
  }

  printsToStdio(): boolean {
    return false;
  }

  onBegin(config: FullConfig, _suite: Suite): void {
    this.facts.startedAt = new Date().toISOString();
    this.outputDirs = [...new Set(config.projects.map((p) => p.outputDir))];
    this.settings = reportSettingsOf(config);
    this.budget = new TargetTextBudget(this.settings.reportTargetBytes);
    this.root = config.configFile ? path.dirname(config.configFile) : (config.rootDir ?? this.root);
    // Read before any test runs, so that a wrong AG_BASELINE is one line naming it and exit 3, as
    // the configuration's own mistakes are, not a crash at the end. (playwright.config.ts checks it
    // first, before the webServer starts; this is the same check for merge-reports.)
    try {
      this.baseline = loadBaseline(this.settings.baselinePath);
    } catch (error) {
      if (!(error instanceof BaselineError)) throw error;
      console.error(`conformance kit: configuration error: ${error.message}`);
      process.exit(3);
    }
  }

  onError(error: TestError): void {
    this.facts.runErrors.push(readRunError(error));
  }

  onTestEnd(test: TestCase, result: TestResult): void {
    const recorded = readTest(test, result, { root: this.root, budget: this.budget, evidenceBytes: this.settings?.evidenceBytes });
    this.addRunFacts(recorded);
    this.outcomes.set(test.id, outcomeOf(recorded));
    findingOutcomes(recorded).forEach((finding, i) => this.outcomes.set(`${test.id}#finding-${i}`, finding));
  }

  /** What the run was (first seen wins), and what every test measured (summed). */
  private addRunFacts(recorded: RecordedTest): void {
    const { run, targetIdentity, retries, lags } = recorded;
    if (run && this.facts.baseURL === undefined)
      Object.assign(this.facts, {
        baseURL: run.baseURL,
        embedded: run.embedded,
        profile: run.profile,
        seed: run.seed,
        numRuns: run.numRuns,
        runId: run.runId,
        visibilityTimeoutMs: run.visibilityTimeoutMs,
      });
    if (targetIdentity && this.facts.service === undefined)
      Object.assign(this.facts, { service: text(targetIdentity.Service), region: text(targetIdentity.Region) });
    if (retries) {
      this.facts.retries[429] += retries[429];
      this.facts.retries[503] += retries[503];
    }
    for (const lag of lags?.lags ?? []) {
      if (typeof lag.visibleAfterMs === 'number') this.facts.lagsMs.push(lag.visibleAfterMs);
      else this.facts.neverVisible++;
    }
  }

  async onEnd(result: FullResult): Promise<{ status?: FullResult['status'] } | void> {
    this.facts.finishedAt = new Date(result.startTime.getTime() + result.duration).toISOString();
    this.facts.startedAt = result.startTime.toISOString();
    mkdirSync(this.reportDir, { recursive: true });
    const waivers = loadWaivers(this.settings?.waiversPath, new Set(loadCatalogue().requirements.map((r) => r.id)));
    const outcomes = [...this.outcomes.values()].map((o) => withCurlBase(o, this.facts));
    try {
      await this.write(summarize(outcomes, this.facts, waivers, new Date(), this.baseline, this.settings?.strictWaivers));
    } catch (error) {
      // Never lose the results to the target's data: write them again without any evidence, saying so.
      const note = `evidence dropped: writing it failed (${oneLine((error as Error).message, 300)})`;
      const bare = outcomes.map((o) => ({
        ...o,
        error: o.error?.slice(0, 2000),
        failures: o.failures.map((f) => ({
          check: String(f.check),
          received: String(f.received).slice(0, 2000),
          documented: String(f.documented),
          fix: String(f.fix),
          exchange: { dropped: note },
        })),
      }));
      await this.write(
        summarize(bare, { ...this.facts, runErrors: [...this.facts.runErrors, note] }, waivers, new Date(), this.baseline, this.settings?.strictWaivers),
      );
    }
    // The last guard: whatever a file ended up holding, no form of a secret stays in it.
    for (const file of this.files()) guardFile(path.join(this.reportDir, file));
    for (const dir of this.outputDirs) guardTree(dir);
  }

  protected abstract write(summary: ConformanceSummary): void | Promise<void>;
  /** The files `write` wrote, in the report directory. */
  protected files(): string[] {
    return [];
  }
}

/**
 * The embedded reference server's port was the run's own: its curl commands read the base URL from
 * AG_BASE_URL instead (client/curl.ts `rebased`), so a reader pastes them against the server they start.
 */
function withCurlBase(outcome: Outcome, facts: RunFacts): Outcome {
  if (!facts.embedded || !facts.baseURL) return outcome;
  const baseURL = facts.baseURL;
  const failures = outcome.failures.map((f) => {
    const ex = f.exchange as { curl?: unknown; request?: { url?: unknown } } | undefined;
    if (typeof ex?.curl !== 'string' || typeof ex.request?.url !== 'string') return f;
    return { ...f, exchange: { ...ex, curl: rebased(ex.curl, ex.request.url, baseURL) } };
  });
  return { ...outcome, failures };
}

/** The target's Service and Region as the report shows them: text, or nothing. */
const text = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

/** The replacement of a secret in a file, escaped for the file's format. */
const replacementFor = (file: string) => (/\.(html|xml|svg)$/.test(file) ? '&lt;redacted token&gt;' : '<redacted token>');

/** Rewrites a file the run wrote with every form of every configured secret blotted out. */
export function guardFile(file: string): void {
  const redactor = secretPattern(secretsFromEnv());
  if (!redactor || !existsSync(file)) return;
  const stat = statSync(file);
  if (!stat.isFile() || stat.size > 256 * 1024 * 1024) return;
  const bytes = readFileSync(file);
  // Binary files (zips, images) are left as they are; the kit writes none with target text.
  if (bytes.subarray(0, 8192).includes(0)) return;
  const text = bytes.toString('utf8');
  const clean = redactText(text, redactor, replacementFor(file));
  if (clean !== text) writeFileSync(file, clean);
}

/** Every file below Playwright's output folder (error contexts, attachments), guarded. */
function guardTree(dir: string): void {
  if (!existsSync(dir)) return;
  const stack = [dir];
  while (stack.length) {
    const current = stack.pop()!;
    for (const name of readdirSync(current)) {
      const full = path.join(current, name);
      const stat = statSync(full);
      if (stat.isDirectory()) stack.push(full);
      else guardFile(full);
    }
  }
}

let consoleGuarded = false;

/**
 * The last guard on the console of the runner (the kit's console prints the tests' errors here):
 * no form of a secret, and no line that a CI runner would read as a workflow command.
 */
export function guardConsole(): void {
  if (consoleGuarded) return;
  consoleGuarded = true;
  for (const stream of [process.stdout, process.stderr]) {
    const write = stream.write.bind(stream) as (...args: unknown[]) => boolean;
    stream.write = ((chunk: unknown, ...rest: unknown[]) => {
      if (typeof chunk === 'string' || Buffer.isBuffer(chunk)) {
        const text = typeof chunk === 'string' ? chunk : chunk.toString('utf8');
        const clean = guardConsoleText(redactText(text, secretPattern(secretsFromEnv())));
        if (clean !== text) return write(clean, ...rest);
      }
      return write(chunk, ...rest);
    }) as typeof stream.write;
  }
}
