/** What one list item tells of the profile: the timestamps' format and ProjectName's default. */
import { type Group, type DiscoverSession } from './client';
import { Scope } from './list';
import { readUtcTimestamp } from '../schemas/timestamp';

/**
 * The timestamp format, from the run's own groups as listed (no request of its own): RFC 3339
 * with Z throughout is rfc3339-utc; any other ISO 8601 form of UTC (+00:00, or the basic format's 20240101T120000Z,
 * +0000) is iso8601-utc.
 */
export function timestampFormat(session: DiscoverSession, scope: Scope): void {
  const setting = 'timestamps.format';
  const values = scope.items.flatMap((item) => [item.CreateTime, item.UpdateTime]);
  const sample = `CreateTime and UpdateTime of the run's ${scope.items.length} groups as listed under the Id filter (e.g. ${JSON.stringify(values[0])})`;
  if (!values.length || values.some((v) => typeof v !== 'string')) return session.keep(setting, `${sample}: not all strings`);
  const strings = values as string[];
  if (strings.every((v) => RFC3339_Z.test(v))) return session.decide(setting, 'rfc3339-utc', `${sample}: all RFC 3339 with Z`);
  const other = strings.find((v) => !RFC3339_Z.test(v));
  if (strings.every((v) => readUtcTimestamp(v) !== undefined))
    return session.decide(setting, 'iso8601-utc', `${sample}: all ISO 8601 in UTC, ${JSON.stringify(other)} in another form than RFC 3339 with Z`);
  session.keep(setting, `${sample}: ${JSON.stringify(other)} is not an ISO 8601 UTC timestamp the profile knows`);
}

const RFC3339_Z = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;

/** The default ProjectName, from the list item of the first group when it was created without one. */
export function projectNameDefault(session: DiscoverSession, first: Group, item: Record<string, unknown> | undefined, seen: string): void {
  if ('ProjectName' in first.sent) return session.keep('create.defaults.ProjectName', 'every create had to carry a ProjectName, so no default could be seen');
  const value = item?.ProjectName;
  if (typeof value === 'string')
    session.decide(
      'create.defaults.ProjectName',
      value,
      `CreateAssetGroup without ProjectName (${session.show(first.id)}), then ${seen}: its ProjectName is ${JSON.stringify(value)}`,
    );
  else session.keep('create.defaults.ProjectName', `${seen}: the item has no string ProjectName`);
}
