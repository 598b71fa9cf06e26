/**
 * Playwright's JSON report (--reporter=json), as far as the kit's own tests and the bench read it:
 * each test flattened, its attachments, and its record read through the run-facts protocol.
 */
import { ATTACHMENT } from './record';
import { readRecord, type RecordedTest } from './read';

/** Playwright's JSON report (--reporter=json), as far as the kit's tools read it. */
export interface JsonReport {
  suites: JsonSuite[];
  errors?: { message?: string }[];
}
interface JsonSuite {
  title: string;
  specs?: {
    title: string;
    file: string;
    line: number;
    column: number;
    tests: { status: string; projectName?: string; annotations: { type: string; description?: string }[]; results: JsonResult[] }[];
  }[];
  suites?: JsonSuite[];
}
export interface JsonResult {
  status: string;
  duration: number;
  /** Playwright's index of the worker process that ran it: a new one after every restart. */
  workerIndex: number;
  error?: { message?: string };
  errors?: { message?: string }[];
  annotations?: { type: string; description?: string }[];
  attachments: { name: string; body?: string }[];
}

/** One test of a JSON report, flattened, with its last result. */
export interface ReportedTest {
  title: string;
  file: string;
  line: number;
  column: number;
  status: string;
  /** The titles of the describes it was declared in, outermost first (tests/helpers/matrix.config.ts: the first names the server). */
  describes: string[];
  annotations: { type: string; description?: string }[];
  result: JsonResult | undefined;
}

export function testsOfReport(report: JsonReport): ReportedTest[] {
  const found: ReportedTest[] = [];
  // The report's top-level suites are the files; below them, the describes.
  const walk = (suite: JsonSuite, describes: string[]) => {
    for (const spec of suite.specs ?? []) {
      for (const t of spec.tests)
        found.push({
          title: spec.title,
          file: spec.file,
          line: spec.line,
          column: spec.column,
          status: t.status,
          describes,
          annotations: t.annotations,
          result: t.results[t.results.length - 1],
        });
    }
    for (const child of suite.suites ?? []) walk(child, [...describes, child.title]);
  };
  for (const file of report.suites) walk(file, []);
  return found;
}

type AttachmentName = (typeof ATTACHMENT)[keyof typeof ATTACHMENT];

/** The JSON body of a test's attachments of that name (the JSON reporter stores them in base64). */
export function attachmentsOf<T>(test: ReportedTest, name: AttachmentName): T[] {
  return (test.result?.attachments ?? []).filter((a) => a.name === name && a.body).map((a) => JSON.parse(Buffer.from(a.body!, 'base64').toString('utf8')) as T);
}

/** A test of a JSON report, read through the run-facts protocol as the kit's reporters read one (facts/read.ts). */
export function recordedOf(test: ReportedTest): RecordedTest {
  const result = test.result;
  return readRecord({
    title: test.title,
    location: { file: test.file, line: test.line, column: test.column },
    annotations: [...test.annotations, ...(result?.annotations ?? [])],
    status: result?.status ?? 'skipped',
    durationMs: result?.duration ?? 0,
    errors: (result?.errors ?? (result?.error ? [result.error] : [])).map((e) => e.message ?? ''),
    attachments: (result?.attachments ?? []).map((a) => ({ name: a.name, body: a.body === undefined ? undefined : Buffer.from(a.body, 'base64') })),
  });
}
