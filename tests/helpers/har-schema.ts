/**
 * HAR 1.2 as a JSON Schema, and the check of an exchanges.har against it: for the reporters fed directly
 * (tests/har-summary.test.ts) and for real runs (tests/reports.test.ts).
 */
import { existsSync } from 'node:fs';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { expect } from '@playwright/test';
import type { Har } from '../../reporters/har-entries';
import { readJson } from './harness';

/** A name/value pair: headers, query parameters, cookies. */
const pair = { type: 'object', required: ['name', 'value'], properties: { name: { type: 'string' }, value: { type: 'string' }, comment: { type: 'string' } } };
/** HAR 1.2 allows custom fields whose names start with an underscore, and no other unknown field. */
const custom = { patternProperties: { '^_': {} }, additionalProperties: false };
const size = { type: 'integer', minimum: -1 };

/** The required fields of HAR 1.2 (http://www.softwareishard.com/blog/har-12-spec/), and the types of the optional ones used here. */
const HAR_SCHEMA = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  type: 'object',
  required: ['log'],
  properties: {
    log: {
      type: 'object',
      required: ['version', 'creator', 'entries'],
      properties: {
        version: { const: '1.2' },
        creator: {
          type: 'object',
          required: ['name', 'version'],
          properties: { name: { type: 'string', minLength: 1 }, version: { type: 'string', minLength: 1 } },
        },
        browser: { type: 'object', required: ['name', 'version'], properties: { name: { type: 'string' }, version: { type: 'string' } } },
        pages: { type: 'array' },
        entries: { type: 'array', items: { $ref: '#/$defs/entry' } },
        comment: { type: 'string' },
      },
      ...custom,
    },
  },
  $defs: {
    entry: {
      type: 'object',
      required: ['startedDateTime', 'time', 'request', 'response', 'cache', 'timings'],
      properties: {
        pageref: { type: 'string' },
        startedDateTime: { type: 'string', format: 'date-time' },
        time: { type: 'number', minimum: 0 },
        request: { $ref: '#/$defs/request' },
        response: { $ref: '#/$defs/response' },
        cache: { type: 'object', properties: { beforeRequest: { type: 'object' }, afterRequest: { type: 'object' }, comment: { type: 'string' } } },
        timings: {
          type: 'object',
          required: ['send', 'wait', 'receive'],
          properties: {
            blocked: { type: 'number', minimum: -1 },
            dns: { type: 'number', minimum: -1 },
            connect: { type: 'number', minimum: -1 },
            send: { type: 'number', minimum: 0 },
            wait: { type: 'number', minimum: 0 },
            receive: { type: 'number', minimum: 0 },
            ssl: { type: 'number', minimum: -1 },
            comment: { type: 'string' },
          },
        },
        serverIPAddress: { type: 'string' },
        connection: { type: 'string' },
        comment: { type: 'string' },
      },
      ...custom,
    },
    request: {
      type: 'object',
      required: ['method', 'url', 'httpVersion', 'cookies', 'headers', 'queryString', 'headersSize', 'bodySize'],
      properties: {
        method: { type: 'string', minLength: 1 },
        url: { type: 'string', format: 'uri' },
        httpVersion: { type: 'string' },
        cookies: { type: 'array', items: pair },
        headers: { type: 'array', items: pair },
        queryString: { type: 'array', items: pair },
        postData: {
          type: 'object',
          required: ['mimeType'],
          properties: { mimeType: { type: 'string' }, text: { type: 'string' }, params: { type: 'array' }, comment: { type: 'string' } },
          // "text and params fields are mutually exclusive"
          not: { type: 'object', required: ['text', 'params'], properties: { text: true, params: true } },
        },
        headersSize: size,
        bodySize: size,
        comment: { type: 'string' },
      },
      ...custom,
    },
    response: {
      type: 'object',
      required: ['status', 'statusText', 'httpVersion', 'cookies', 'headers', 'content', 'redirectURL', 'headersSize', 'bodySize'],
      properties: {
        status: { type: 'integer', minimum: 0 },
        statusText: { type: 'string' },
        httpVersion: { type: 'string' },
        cookies: { type: 'array', items: pair },
        headers: { type: 'array', items: pair },
        content: {
          type: 'object',
          required: ['size', 'mimeType'],
          properties: {
            size: { type: 'integer', minimum: -1 },
            compression: { type: 'integer' },
            mimeType: { type: 'string' },
            text: { type: 'string' },
            encoding: { type: 'string' },
            comment: { type: 'string' },
          },
          ...custom,
        },
        redirectURL: { type: 'string' },
        headersSize: size,
        bodySize: size,
        comment: { type: 'string' },
      },
      ...custom,
    },
  },
};

const ajv = new Ajv2020({ allErrors: true, strict: true });
addFormats(ajv);
const validateHar = ajv.compile(HAR_SCHEMA);

/** Reads exchanges.har, and checks it against HAR 1.2 and the sums HAR states (time is the sum of the timings). */
export function expectValidHar(file: string): Har {
  expect(existsSync(file), `${file} written`).toBe(true);
  const har = readJson<Har>(file);
  validateHar(har);
  expect(validateHar.errors ?? [], `${file} is HAR 1.2`).toEqual([]);
  for (const entry of har.log.entries) {
    const { send, wait, receive } = entry.timings;
    expect(entry.time).toBeCloseTo(send + wait + receive, 6);
  }
  return har;
}
