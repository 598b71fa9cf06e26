/** The reference server's request bodies: what a malformed, non-object, oversized or garbage body gets, and malformed HTTP or a bug in a step. */
import net from 'node:net';
import fc from 'fast-check';
import {
  BAD_REQUEST_KIND,
  Client,
  expect,
  expectError,
  expectSuccess,
  JSON_TYPE,
  LIST,
  OPS,
  SPEC_PATH,
  test,
  TOKENS,
  VERSION,
} from './helpers/reference-client';

test.describe('request bodies', () => {
  const malformed: Array<[string, string | Uint8Array<ArrayBuffer>]> = [
    ['empty', ''],
    ['truncated object', '{'],
    ['truncated member', '{"Name":'],
    ['single quotes', "{'Name':'x'}"],
    ['trailing comma', '{"Name":"x",}'],
    ['bare word', 'nul'],
    ['two values', '{}{}'],
    ['invalid UTF-8', new Uint8Array([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x7d])],
  ];
  const nonObjects: Array<[string, string]> = [
    ['array', '[]'],
    ['array of object', '[{"Name":"x"}]'],
    ['string', '"x"'],
    ['number', '42'],
    ['null', 'null'],
    ['true', 'true'],
  ];
  for (const op of OPS) {
    test(`${op}: malformed JSON is a 400 ${BAD_REQUEST_KIND[op]}`, async ({ ref }) => {
      for (const [label, raw] of malformed) {
        await test.step(label, async () => expectError(await ref.call({ action: op, raw }), 400, BAD_REQUEST_KIND[op], op));
      }
    });

    test(`${op}: a JSON value that is not an object is a 400 ${BAD_REQUEST_KIND[op]}`, async ({ ref }) => {
      for (const [label, raw] of nonObjects) {
        await test.step(label, async () => expectError(await ref.call({ action: op, raw }), 400, BAD_REQUEST_KIND[op], op));
      }
    });

    test(`${op}: a body over 1 MiB is a 400 ${BAD_REQUEST_KIND[op]}; exactly 1 MiB is read`, async ({ ref }) => {
      const fill = (size: number) => {
        const shell = JSON.stringify({ Name: 'big', Pad: '' });
        return JSON.stringify({ Name: 'big', Pad: 'a'.repeat(size - shell.length) });
      };
      expectSuccess(await ref.call({ action: op, raw: fill(1024 * 1024) }), op);
      expectError(await ref.call({ action: op, raw: fill(1024 * 1024 + 1) }), 400, BAD_REQUEST_KIND[op], op);
      // Chunked, with no Content-Length: the limit holds while streaming too.
      const chunk = new TextEncoder().encode(' '.repeat(64 * 1024));
      let sent = 0;
      const stream = new ReadableStream<Uint8Array>({
        pull(controller) {
          if (sent >= 4 * 1024 * 1024) controller.close();
          else {
            sent += chunk.length;
            controller.enqueue(chunk);
          }
        },
      });
      const res = await fetch(`${ref.server.url}${SPEC_PATH}?Action=${op}&Version=${VERSION}`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${TOKENS.primary}` },
        body: stream,
        duplex: 'half',
      } as RequestInit);
      expect(res.status).toBe(400);
      expect((await res.json()).ResponseMetadata.Error.Code).toBe(BAD_REQUEST_KIND[op]);
    });
  }

  test('no 5xx and always the envelope for a batch of garbage bodies', async ({ ref }) => {
    const field = fc.constantFrom(
      'Name',
      'Title',
      'Description',
      'GroupType',
      'ProjectName',
      'Filter',
      'PageNumber',
      'PageSize',
      'GroupIds',
      '__proto__',
      'constructor',
    );
    const value = fc.oneof(fc.jsonValue(), fc.string({ maxLength: 400, size: 'max' }), fc.constantFrom('AIGC', 1, 0, -1, 100, 101, 1.5, 1e300));
    const body = fc.oneof(
      // maxKeys below the number of distinct keys: a larger unique-key dictionary never finishes generating.
      fc.dictionary(field, value, { maxKeys: 5 }).map((o) => JSON.stringify(o)),
      fc.dictionary(field, fc.dictionary(field, value, { maxKeys: 5 }), { maxKeys: 3 }).map((o) => JSON.stringify(o)),
      fc
        .record(
          {
            Name: fc.string({ maxLength: 70, size: 'max' }),
            Description: fc.string({ maxLength: 310, size: 'max' }),
            GroupType: fc.constantFrom('AIGC', 'aigc'),
            PageSize: fc.integer({ min: -1, max: 101 }),
          },
          { requiredKeys: [] },
        )
        .map((o) => JSON.stringify(o)),
      fc.jsonValue().map((v) => JSON.stringify(v)),
      fc.string(),
      fc.uint8Array({ maxLength: 64 }).map((b) => Buffer.from(b).toString('latin1')),
      fc.constantFrom('['.repeat(100_000), '{"a":'.repeat(50_000), '\u0000', '{"Name":"\\ud800"}'),
    );
    const samples = fc.sample(body, { numRuns: 150, seed: 20240101 });
    for (const op of OPS) {
      const replies = await Promise.all(samples.map((raw) => ref.call({ action: op, raw, as: 'channelA' })));
      for (const [i, r] of replies.entries()) {
        expect(r.status, `body ${JSON.stringify(samples[i]).slice(0, 200)}`).toBeLessThan(500);
        expect([200, 400, 429]).toContain(r.status);
        if (r.status === 400) expectError(r, 400, BAD_REQUEST_KIND[op], op);
        else if (r.status === 200) expectSuccess(r, op);
      }
    }
  });

  test('malformed HTTP gets a 400 with the envelope, not a dropped connection', async ({ ref }) => {
    const { port } = new URL(ref.server.url);
    const reply = await new Promise<string>((resolve, reject) => {
      const socket = net.connect(Number(port), '127.0.0.1', () => socket.write('NOT HTTP AT ALL\r\n\r\n'));
      let data = '';
      socket.on('data', (d) => (data += d.toString()));
      socket.on('end', () => resolve(data));
      socket.on('error', reject);
    });
    expect(reply).toMatch(/^HTTP\/1\.1 400 /);
    expect(reply).toContain(`Content-Type: ${JSON_TYPE}`);
    const body = JSON.parse(reply.slice(reply.indexOf('\r\n\r\n') + 4));
    expect(body.ResponseMetadata.Error.Code).toBe('AssetBadRequest');
  });

  test('a bug in a step is a 500 AssetError with the envelope', async ({ startReference }) => {
    const server = await startReference({
      lagMs: 0,
      hooks: {
        validateList: () => {
          throw new Error('planted bug');
        },
      },
    });
    expectError(await new Client(server, 0).list({}), 500, 'AssetError', LIST);
  });
});
