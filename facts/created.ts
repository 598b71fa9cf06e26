/**
 * The groups a run created, as it leaves them in its report folder for a later run to read back (created.json): the
 * one protocol between the run that writes it (suites/global-setup.ts, under AG_KEEP_CREATED=1, which `agc certify`
 * sets against a target of its own) and `agc certify`, which re-reads those groups by Id after each later run
 * (certify/durability.ts). A writer and a reader here, so that neither side parses the other's file by hand.
 *
 * Bounded and without secrets: a few groups, each with the token role it was created through (a role's name, never a
 * token), the values the kit sent (its own text) and the Id the target answered.
 */
import { mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';

export const CREATED_FILE = 'created.json';
export const CREATED_FORMAT = 'agc-created/1';

/** The token roles that create groups (suites/dataset.ts CREATING_ROLES). */
export const CREATED_VIA = ['primary', 'channelA', 'channelB'] as const;
export type CreatedVia = (typeof CREATED_VIA)[number];

/** At most this many groups, and this many bytes of file: a run creates about eight. */
const MAX_GROUPS = 32;
const MAX_BYTES = 256 * 1024;
/** An Id, a key or a value longer than this is not one the kit wrote or a target's Id it keeps. */
const MAX_TEXT = 4096;

export interface CreatedGroup {
  /** The group's key in the run (p0, ca, …), as its reports name it. */
  key: string;
  via: CreatedVia;
  /** The Id the create answered. */
  id: string;
  /** The fields sent to CreateAssetGroup, as sent. */
  sent: Record<string, string>;
  /** When the create answered (ISO 8601, the kit's clock). */
  createdAt: string;
}

export interface CreatedRecord {
  format: typeof CREATED_FORMAT;
  runId: string;
  /**
   * The groups the run saw listed to the token that created them: a group never listed is VIS-01's finding in that run,
   * not one to read back. Groups only their own test reads (at the profile's bounds, a namesake) are left out.
   */
  groups: CreatedGroup[];
}

export class CreatedError extends Error {}

export function writeCreated(dir: string, record: CreatedRecord): void {
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, CREATED_FILE), `${JSON.stringify({ ...record, groups: record.groups.slice(0, MAX_GROUPS) }, null, 2)}\n`);
}

const isText = (v: unknown): v is string => typeof v === 'string' && v.length <= MAX_TEXT;

function groupOf(value: unknown, at: string): CreatedGroup {
  const g = value as Partial<CreatedGroup> | null;
  if (!g || typeof g !== 'object') throw new CreatedError(`${at} is not an object`);
  if (!isText(g.key) || !isText(g.id) || !g.id || !isText(g.createdAt) || Number.isNaN(Date.parse(g.createdAt)))
    throw new CreatedError(`${at} lacks its key, Id or create time`);
  if (!CREATED_VIA.includes(g.via as CreatedVia)) throw new CreatedError(`${at}.via is not one of ${CREATED_VIA.join(', ')}`);
  const sent = g.sent as Record<string, unknown> | undefined;
  if (!sent || typeof sent !== 'object' || Array.isArray(sent) || !Object.values(sent).every(isText))
    throw new CreatedError(`${at}.sent is not an object of strings`);
  return { key: g.key, via: g.via as CreatedVia, id: g.id, sent: sent as Record<string, string>, createdAt: g.createdAt };
}

/** A run's created.json, checked: its size, its format, each group's fields. */
export function readCreated(dir: string): CreatedRecord {
  const file = path.join(dir, CREATED_FILE);
  let text: string;
  try {
    if (statSync(file).size > MAX_BYTES) throw new CreatedError(`${file} is larger than ${MAX_BYTES} bytes`);
    text = readFileSync(file, 'utf8');
  } catch (error) {
    if (error instanceof CreatedError) throw error;
    throw new CreatedError(`${file} cannot be read (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
  }
  let parsed: Partial<CreatedRecord>;
  try {
    parsed = JSON.parse(text) as Partial<CreatedRecord>;
  } catch {
    throw new CreatedError(`${file} is not JSON`);
  }
  if (parsed?.format !== CREATED_FORMAT || !isText(parsed.runId) || !Array.isArray(parsed.groups) || parsed.groups.length > MAX_GROUPS)
    throw new CreatedError(`${file} is not a record of created groups ("format": "${CREATED_FORMAT}", at most ${MAX_GROUPS} groups)`);
  return { format: CREATED_FORMAT, runId: parsed.runId, groups: parsed.groups.map((g, i) => groupOf(g, `${file}: groups[${i}]`)) };
}
