import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { redactText, secretPattern, secretsFromEnv } from '../client/redact';
import { guardConsoleText, oneLine } from '../client/safe-text';
import { EVIDENCE_DEPTH, evidenceBytes } from '../client/evidence';
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
  /** Characters of the target's text (bodies, headers) this report holds so far; see keepEvidence. */
  private targetText = 0;
  private outputDirs: string[] = [];
  private readonly facts: RunFacts = { lagsMs: [], neverVisible: 0, retries: { 429: 0, 503: 0 }, startedAt: new Date().toISOString(), finishedAt: '', runErrors: [] };
  private readonly baseline: Baseline | undefined;

  constructor() {
    guardConsole();
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

  onBegin(config: FullConfig, _suite: Suite): void {
    this.facts.startedAt = new Date().toISOString();
    this.outputDirs = [...new Set(config.projects.map((p) => p.outputDir))];
  }

  onError(error: TestError): void {
    this.facts.runErrors.push(oneLine(firstLine(error.message ?? error.value ?? 'unknown error'), 4000));
  }

  /**
   * A report holds at most AG_REPORT_TARGET_BYTES (16 MiB) of the target's text: past it, a
   * failure keeps its check and its message but its exchange is dropped, with a note saying so.
   */
  private keepEvidence(failure: FailureEvidence): FailureEvidence {
    if (!failure.exchange) return failure;
    let size = 0;
    try {
      size = JSON.stringify(failure.exchange).length;
    } catch {
      size = Infinity;
    }
    if (this.targetText + size > reportTargetBytes()) return { ...failure, exchange: { dropped: `evidence dropped: the report already holds ${this.targetText} characters of the target's text (limit ${reportTargetBytes()}, AG_REPORT_TARGET_BYTES)` } };
    this.targetText += size;
    return failure;
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
      if (attachment.name === 'evidence' && body?.failure) failures.push(this.keepEvidence({ ...body.failure, exchange: body.exchange }));
      else if (attachment.name === 'finding' && body?.failure && typeof body.requirement === 'string') findings.push({ requirement: body.requirement, failure: this.keepEvidence({ ...body.failure, exchange: body.exchange }) });
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
      error: cutError(stripAnsi(result.errors.map((e) => e.message ?? e.value ?? '').join('\n'))) || undefined,
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
    const outcomes = [...this.outcomes.values()];
    try {
      await this.write(summarize(outcomes, this.facts, waivers, new Date(), this.baseline));
    } catch (error) {
      // Never lose the results to the target's data: write them again without any evidence, saying so.
      const note = `evidence dropped: writing it failed (${oneLine((error as Error).message, 300)})`;
      const bare = outcomes.map((o) => ({ ...o, error: o.error?.slice(0, 2000), failures: o.failures.map((f) => ({ check: String(f.check), received: String(f.received).slice(0, 2000), documented: String(f.documented), fix: String(f.fix), exchange: { dropped: note } })) }));
      await this.write(summarize(bare, { ...this.facts, runErrors: [...this.facts.runErrors, note] }, waivers, new Date(), this.baseline));
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

/** AG_REPORT_TARGET_BYTES: the target's text one report may hold, 16 MiB by default. */
function reportTargetBytes(): number {
  const raw = process.env.AG_REPORT_TARGET_BYTES;
  return raw && /^\d+$/.test(raw.trim()) && Number(raw) > 0 ? Number(raw) : 16 * 1024 * 1024;
}

const cutError = (text: string) => (text.length > evidenceBytes() ? `${text.slice(0, evidenceBytes())}… (cut)` : text);

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
 * The last guard on the console of the runner (Playwright's list of test errors is printed here):
 * no form of a secret, and no line that a CI runner would read as a workflow command.
 */
function guardConsole(): void {
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

/** A copy with the escapes stripped from every string; without recursion, and cut below EVIDENCE_DEPTH levels. */
function cleanDeep(value: any): any {
  if (typeof value === 'string') return stripAnsi(value);
  if (!value || typeof value !== 'object') return value;
  const root: any = Array.isArray(value) ? [] : {};
  const stack: [any, any, number][] = [[value, root, 1]];
  while (stack.length) {
    const [src, dst, level] = stack.pop()!;
    for (const [k, v] of Object.entries(src)) {
      if (typeof v === 'string') dst[k] = stripAnsi(v);
      else if (v && typeof v === 'object') {
        if (level >= EVIDENCE_DEPTH) {
          dst[k] = `[nested deeper than ${EVIDENCE_DEPTH} levels: cut]`;
          continue;
        }
        dst[k] = Array.isArray(v) ? [] : {};
        stack.push([v, dst[k], level + 1]);
      } else dst[k] = v;
    }
  }
  return root;
}

function firstLine(text: string): string {
  const clean = stripAnsi(text);
  const line = clean.split('\n').find((l) => l.trim())?.trim() ?? clean;
  return line.replace(/^Error: /, '');
}
