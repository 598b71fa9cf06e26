/** ENV: the envelope, the content type, a Result, and distinct RequestIds. */
import type { Exchange } from '../../client/exchange';
import { readPointer } from '../../schemas/profile';
import { fail, owned, show, type CheckContext, type Failure, type Owned } from './kit';

const ENVELOPE_FIELDS = ['RequestId', 'Action', 'Version', 'Service', 'Region'] as const;

/** The answer parses as JSON: ENV-05's finding wherever another requirement needs to read a body. */
export const JSON_ANSWER: Owned = owned('ENV-05', answeredWithJson);

/** The answer is an HTTP response whose body parses as JSON; every other check needs it. */
export function answeredWithJson(ex: Exchange): Failure | undefined {
  if (!ex.response) {
    return fail(
      answeredWithJson,
      `no HTTP response: ${ex.networkError}`,
      'every request gets a JSON response',
      'answer every request, including malformed ones, instead of dropping the connection',
    );
  }
  if (ex.response.json === undefined && ex.response.jsonAfter !== undefined) {
    const before = ex.response.jsonAfter;
    return fail(
      answeredWithJson,
      `HTTP ${ex.response.status} with ${before} character${before === 1 ? '' : 's'} before the JSON: ${show(ex.response.body.slice(0, Math.min(before, 200)))}${before > 200 ? '…' : ''}`,
      'The service is an HTTP/JSON interface: the body is the JSON document, nothing before it (RFC 8259 §8.1: no byte order mark either).',
      'send nothing before the JSON body: log runtime warnings instead of printing them into the answer (PHP: display_errors=Off), and write no byte order mark',
    );
  }
  if (ex.response.json === undefined) {
    return fail(
      answeredWithJson,
      `HTTP ${ex.response.status} with a body that is not JSON (${ex.response.jsonError}): ${show(ex.response.body.slice(0, 200))}`,
      'The service is an HTTP/JSON interface.',
      'answer with a JSON body on every path, errors included',
    );
  }
  return undefined;
}

export function jsonContentType(ex: Exchange): Failure | undefined {
  const type = ex.response?.headers['content-type'];
  if (!type || !/^application\/([\w.-]+\+)?json\s*(;|$)/i.test(type.trim())) {
    return fail(
      jsonContentType,
      `Content-Type ${type === undefined ? '(none)' : show(type)}`,
      'The service is an HTTP/JSON interface: Content-Type application/json',
      'send Content-Type: application/json on every response, errors included',
    );
  }
  return answeredWithJson(ex);
}

export function envelopePresent(ex: Exchange): Failure | undefined {
  const missing = answeredWithJson(ex);
  if (missing) return { ...missing, check: envelopePresent.name };
  const meta = readPointer(ex.response!.json, '/ResponseMetadata');
  if (typeof meta !== 'object' || meta === null || Array.isArray(meta)) {
    return fail(
      envelopePresent,
      `HTTP ${ex.response!.status}, ResponseMetadata ${meta === undefined ? 'absent' : show(meta)}`,
      'ResponseMetadata | object | Present on every response.',
      'wrap every response, errors included, in the ResponseMetadata envelope',
    );
  }
  const bad = envelopeGaps(ex);
  if (bad.length) {
    return fail(
      envelopePresent,
      `HTTP ${ex.response!.status}, ResponseMetadata ${show(meta)}: ${bad.join(', ')} missing or not a string`,
      'ResponseMetadata carries RequestId, Action, Version, Service and Region, all strings',
      `set ${bad.join(', ')} on every response`,
    );
  }
  return undefined;
}

/** The envelope fields a JSON answer lacks or has as something else than a string: all of them without a ResponseMetadata object. */
function envelopeGaps(ex: Exchange): string[] {
  const meta = readPointer(ex.response?.json, '/ResponseMetadata');
  if (typeof meta !== 'object' || meta === null || Array.isArray(meta)) return [...ENVELOPE_FIELDS];
  return ENVELOPE_FIELDS.filter((field) => typeof (meta as Record<string, unknown>)[field] !== 'string');
}

/**
 * ENV-01's, wherever an error's envelope is read: fields it lacks that a success of the run lacks too are one
 * deviation, the envelope's everywhere (a RequestId sent as a header alone), ENV-01's; a gap of errors alone is ENV-02's.
 */
export function envelopeLikeSuccess(ex: Exchange, ctx: CheckContext): Failure | undefined {
  if (answeredWithJson(ex)) return undefined;
  const gaps = envelopeGaps(ex);
  const success = ctx.successes.find((s) => s.response?.status === 200 && !answeredWithJson(s) && gaps.every((field) => envelopeGaps(s).includes(field)));
  if (!gaps.length || !success) return undefined;
  return fail(
    envelopeLikeSuccess,
    `HTTP ${ex.response!.status}: ${gaps.join(', ')} missing or not a string, as in the answer to the successful ${success.request.url.match(/Action=(\w+)/)?.[1] ?? 'request'}`,
    'ResponseMetadata carries RequestId, Action, Version, Service and Region, all strings (Present on every response)',
    `set ${gaps.join(', ')} on every response`,
  );
}

export function requestIdNonEmpty(ex: Exchange): Failure | undefined {
  const id = readPointer(ex.response?.json, '/ResponseMetadata/RequestId');
  if (typeof id !== 'string' || id.trim() === '') {
    return fail(
      requestIdNonEmpty,
      `RequestId ${show(id)}`,
      'ResponseMetadata.RequestId | string | Request identifier <request_id>.',
      'give every response a fresh, non-empty request identifier',
    );
  }
  return undefined;
}

export function resultPresent(ex: Exchange): Failure | undefined {
  const result = readPointer(ex.response?.json, '/Result');
  if (typeof result !== 'object' || result === null || Array.isArray(result)) {
    return fail(
      resultPresent,
      `HTTP ${ex.response?.status}, Result ${result === undefined ? 'absent' : show(result)}`,
      'Result | object | Operation result; shape depends on the operation.',
      'put the operation result in a Result object',
    );
  }
  return undefined;
}

export function status200(ex: Exchange): Failure | undefined {
  if (ex.response?.status !== 200) {
    const code = ex.response ? readPointer(ex.response.json, '') : undefined;
    const failure = fail(
      status200,
      ex.response ? `HTTP ${ex.response.status}: ${show(code ?? ex.response.body.slice(0, 300))}` : `no response: ${ex.networkError}`,
      'Success: HTTP 200',
      'accept a valid request with a valid Bearer token and answer 200',
    );
    // The kit only sends valid list queries in the profile's terms: refusing one as a bad request
    // says the target does not know those terms (field names, bounds), more likely than that it is broken.
    const refusedQuery = ex.request.action === 'ListAssetGroups' && ex.response?.status === 400 && ex.request.body.trim() !== '{}';
    return refusedQuery
      ? {
          ...failure,
          profileMismatch: `a list query in the profile's terms, ${ex.request.body.slice(0, 200)}, was refused with HTTP 400; the target seems to use other field names or bounds: set list.filterField, list.filters.*, list.pageNumber and list.pageSize`,
        }
      : failure;
  }
  return undefined;
}

const requestIdOf = (ex: Exchange) => readPointer(ex.response?.json, '/ResponseMetadata/RequestId');

/** ENV-04: no RequestId repeats across the exchanges (those without one are ENV-03's). */
export function distinctRequestIds(exchanges: Exchange[]): Failure | undefined {
  const ids = exchanges.map(requestIdOf).filter((id): id is string => typeof id === 'string' && id.trim() !== '');
  const repeated = [...new Set(ids.filter((id, i) => ids.indexOf(id) !== i))];
  if (repeated.length)
    return fail(
      distinctRequestIds,
      `RequestId ${show(repeated)} repeated across ${ids.length} responses`,
      'ResponseMetadata.RequestId | string | Request identifier <request_id>.',
      'give every response its own request identifier',
    );
  return undefined;
}

/** ENV-07: one Service name across the answers (those without a string Service are ENV-01's and ENV-02's). */
export function sameService(exchanges: Exchange[]): Failure | undefined {
  const names = [
    ...new Set(exchanges.map((ex) => readPointer(ex.response?.json, '/ResponseMetadata/Service')).filter((name): name is string => typeof name === 'string')),
  ];
  if (names.length > 1) {
    const where = names.map(
      (name) => `${show(name)} (HTTP ${exchanges.find((ex) => readPointer(ex.response?.json, '/ResponseMetadata/Service') === name)?.response?.status})`,
    );
    return fail(
      sameService,
      `ResponseMetadata.Service ${where.join(', ')} across ${exchanges.length} responses`,
      'ResponseMetadata.Service | string | Service name <service_name>.',
      'name the service the same way on every response, errors answered by a gateway included',
    );
  }
  return undefined;
}
