import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { FullConfig, FullResult, Reporter, Suite, TestCase, TestError, TestResult } from '@playwright/test/reporter';
import { summarize, type ConformanceSummary, type FailureEvidence, type Outcome, type RunFacts } from './verdict';
import { loadWaivers } from './waivers';
import { loadBaseline, BaselineError, type Baseline } from './baseline';
import { loadCatalogue } from '../schemas/requirements';

/**
 * What every output reporter shares: it reads the requirement annotations and the attachments
 * the suites wrote, and hands them to `summarize`. Subclasses only write their file.
 */
export abstract class ConformanceReporter implements Reporter {
  private readonly outcomes = new Map<string, Outcome>();
  private readonly facts: RunFacts = { lagsMs: [], neverVisible: 0, retries: { 429: 0, 503: 0 }, startedAt: new Date().toISOString(), finishedAt: '', runErrors: [] };
  private readonly baseline: Baseline | undefined;

  constructor() {
    // Read before any test runs (and before the webServer starts), so that a wrong AG_BASELINE is
    // one line naming it and exit 3, as the configuration's own mistakes are, not a crash at the end.
    try {
      this.baseline = loadBaseline(process.env.AG_BASELINE);
    } catch (error) {
      if (!(error instanceof BaselineError)) throw error;
      console.error(`conformance kit: configuration error: ${error.message}`);
      process.exit(3);
    }
  }

  /** The report directory; the env var wins so CI can route each run's reports. */
  protected get reportDir(): string {
    return path.resolve(process.env.AG_REPORT_DIR || 'conformance-report');
  }

  printsToStdio(): boolean {
    return false;
  }

  onBegin(_config: FullConfig, _suite: Suite): void {
    this.facts.startedAt = new Date().toISOString();
  }

  onError(error: TestError): void {
    this.facts.runErrors.push(firstLine(error.message ?? error.value ?? 'unknown error'));
  }

  onTestEnd(test: TestCase, result: TestResult): void {
    // Playwright lists runtime annotations on both the test and its result: keep each once.
    const unique = new Map<string, { type: string; description?: string }>();
    for (const a of [...test.annotations, ...result.annotations]) {
      const description = a.description === undefined ? undefined : stripAnsi(a.description);
      unique.set(`${a.type}\u0000${description}`, { type: a.type, description });
    }
    const annotations = [...unique.values()];
    const requirement = annotations.find((a) => a.type === 'requirement')?.description ?? null;
    const failures: FailureEvidence[] = [];
    const findings: { requirement: string; failure: FailureEvidence }[] = [];
    let counterexample: Outcome['counterexample'];
    for (const attachment of result.attachments) {
      if (!attachment.body) continue;
      const body = cleanDeep(parseJson(attachment.body.toString('utf8')));
      if (attachment.name === 'evidence' && body?.failure) failures.push({ ...body.failure, exchange: body.exchange });
      else if (attachment.name === 'finding' && body?.failure && typeof body.requirement === 'string') findings.push({ requirement: body.requirement, failure: { ...body.failure, exchange: body.exchange } });
      else if (attachment.name === 'counterexample' && body) counterexample = body;
      else if (attachment.name === 'run' && body && this.facts.baseURL === undefined) Object.assign(this.facts, { baseURL: body.baseURL, embedded: body.embedded, profile: body.profile, seed: body.seed, numRuns: body.numRuns, runId: body.runId, visibilityTimeoutMs: body.visibilityTimeoutMs });
      else if (attachment.name === 'target-identity' && body && this.facts.service === undefined) Object.assign(this.facts, { service: body.Service, region: body.Region });
      else if (attachment.name === 'retries' && body) {
        this.facts.retries[429] += Number(body[429]) || 0;
        this.facts.retries[503] += Number(body[503]) || 0;
      } else if (attachment.name === 'visibility-lags' && body) {
        for (const lag of body.lags ?? []) {
          if (typeof lag.visibleAfterMs === 'number') this.facts.lagsMs.push(lag.visibleAfterMs);
          else this.facts.neverVisible++;
        }
      }
    }
    const status = result.status === 'passed' ? 'passed' : result.status === 'skipped' ? 'skipped' : 'failed';
    const blockedBy = status === 'skipped' ? annotations.filter((a) => a.type === 'blocked' && a.description).map((a) => a.description!) : [];
    const profileMismatch = status === 'skipped' ? annotations.find((a) => a.type === 'profile-mismatch')?.description : undefined;
    const outcome: Outcome = {
      requirement,
      title: stripAnsi(test.title),
      file: path.relative(process.cwd(), test.location.file),
      status,
      durationMs: result.duration,
      checks: annotations.filter((a) => a.type === 'check').map((a) => a.description ?? ''),
      skipReason: annotations.find((a) => a.type === 'skip')?.description,
      ...(blockedBy.length ? { blockedBy } : {}),
      ...(profileMismatch ? { profileMismatch } : {}),
      error: stripAnsi(result.errors.map((e) => e.message ?? e.value ?? '').join('\n')) || undefined,
      failures,
      counterexample,
    };
    this.outcomes.set(test.id, outcome);
    // A check owned by another requirement failed in this test: that is the other requirement's
    // failure (this test is blocked by it), so it counts there, with where it was noticed.
    findings.forEach((finding, i) => {
      this.outcomes.set(`${test.id}#finding-${i}`, {
        requirement: finding.requirement, title: outcome.title, file: outcome.file, status: 'failed', durationMs: 0,
        checks: [finding.failure.check], failures: [finding.failure], noticedIn: outcome.title,
      });
    });
  }

  async onEnd(result: FullResult): Promise<{ status?: FullResult['status'] } | void> {
    this.facts.finishedAt = new Date(result.startTime.getTime() + result.duration).toISOString();
    this.facts.startedAt = result.startTime.toISOString();
    mkdirSync(this.reportDir, { recursive: true });
    const waivers = loadWaivers(process.env.AG_WAIVERS, new Set(loadCatalogue().requirements.map((r) => r.id)));
    await this.write(summarize([...this.outcomes.values()], this.facts, waivers, new Date(), this.baseline));
  }

  protected abstract write(summary: ConformanceSummary): void | Promise<void>;
}

function parseJson(text: string): any {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/**
 * Terminal escape sequences (Playwright colours the messages of a plain `expect`) are taken out of
 * every text the reports take in, once, here: no output has to remember to.
 */
// eslint-disable-next-line no-control-regex
const ANSI = /\u001b(?:\[[0-9;?]*[ -\/]*[@-~]|\][^\u0007\u001b]*(?:\u0007|\u001b\\)|[@-Z\\-_])/g;

export function stripAnsi(text: string): string {
  return text.replace(ANSI, '');
}

function cleanDeep(value: any): any {
  if (typeof value === 'string') return stripAnsi(value);
  if (Array.isArray(value)) return value.map(cleanDeep);
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, cleanDeep(v)]));
  return value;
}

function firstLine(text: string): string {
  const clean = stripAnsi(text);
  const line = clean.split('\n').find((l) => l.trim())?.trim() ?? clean;
  return line.replace(/^Error: /, '');
}
