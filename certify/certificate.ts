import { createHash, createPrivateKey, createPublicKey, sign, verify, type KeyObject } from 'node:crypto';
import type { Verdict } from '../reporters/verdict';
import type { Waiver } from '../reporters/waivers';
import type { CertifiedDurability } from './durability';

/**
 * The certificate `agc certify` hands over: what was run, against what, by which kit, spec and
 * profile, under which waivers, with what verdict, and the sha256 of every run's conformance.json and exchanges.har;
 * optionally signed with an Ed25519 key. Pure: certify.ts gathers the facts, this file shapes,
 * serialises and signs them, verify.ts checks them.
 */

export const CERTIFICATE_FORMAT = 'agc-certificate/1';

/** How the signature is made; written into the certificate so a verifier needs no other document. */
export const SIGNED_OVER = 'the certificate without its "signature" field, as JSON with every object\'s keys sorted and no whitespace (UTF-8)';

export interface CertifiedRun {
  run: number;
  seed: number;
  verdict: Verdict;
  firstReason: string | null;
  runId: string | null;
  baseURL: string | null;
  service: string | null;
  region: string | null;
  startedAt: string;
  finishedAt: string;
  /** Relative to the certificate's folder, with `/`. */
  report: string;
  reportSha256: string;
  html: string;
  /** The run's exchanges.har, every exchange it sent (AG_HAR_ALL), relative like `report`; absent in certificates made before it was kept. */
  har?: string;
  harSha256?: string;
  /** The groups the run created, which later runs read back (created.json, relative like `report`); only against a target of its own. */
  created?: string;
  createdSha256?: string;
}

export interface CertifiedWaiver extends Waiver {
  /** `in force` on the certificate's date, or `expired` (it then waived nothing). */
  state: 'in force' | 'expired';
  /** The runs in which it turned a failure into `waived`. */
  appliedInRuns: number[];
}

export interface ProfileInForce {
  name: string;
  /** The AG_PROFILE file merged over spec/profile.yaml; null for the reference profile alone. */
  path: string | null;
  reference: boolean;
  /** sha256 of the merged profile the runs judged by, as canonical JSON. */
  sha256: string;
  /** sha256 of the AG_PROFILE file's bytes; null for the reference profile alone. */
  fileSha256: string | null;
}

export interface Signature {
  algorithm: 'ed25519';
  /** sha256 of the public key (SubjectPublicKeyInfo, DER), hex: which key signed. */
  publicKeySha256: string;
  signedOver: string;
  /** base64 */
  value: string;
}

export interface Certificate {
  /** Present only when a waiver is in force or the profile is not the reference one: read it first. */
  notice?: string;
  format: typeof CERTIFICATE_FORMAT;
  verdict: Verdict;
  /** `reference`, or `custom (PATH)`: what the verdict was judged by, in one line. */
  profile: string;
  kit: { name: string; version: string };
  spec: { sha256: string; files: Record<string, string> };
  profileInForce: ProfileInForce;
  target: { baseURL: string | null; embedded: boolean; service: string[]; region: string[] };
  issuedAt: string;
  seeds: number[];
  runs: CertifiedRun[];
  waivers: { file: string | null; fileSha256: string | null; entries: CertifiedWaiver[] };
  /** Whether the groups of earlier runs were still listed, as sent, after each later run; absent in certificates made before. */
  durability?: CertifiedDurability;
  signature?: Signature;
}

/** Worst first: a MUST that failed outweighs one that could not be assessed (as within one run). */
const SEVERITY: Record<Verdict, number> = { conformant: 0, incomplete: 1, 'non-conformant': 2 };

export function combinedVerdict(verdicts: readonly Verdict[]): Verdict {
  return verdicts.reduce<Verdict>((worst, v) => (SEVERITY[v] > SEVERITY[worst] ? v : worst), 'conformant');
}

/** The certificate's verdict: the worst of its runs' and of the read-backs between them (durability), where assessed. */
export const certificateVerdict = (runs: readonly Verdict[], durability: Pick<CertifiedDurability, 'verdict'> | undefined): Verdict =>
  combinedVerdict(durability?.verdict ? [...runs, durability.verdict] : runs);

export const sha256 = (data: string | Buffer): string => createHash('sha256').update(data).digest('hex');

/** JSON with every object's keys sorted and no whitespace: the bytes a signature covers. */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') {
    const text = JSON.stringify(value);
    // undefined, functions and symbols have no JSON; a certificate never holds them.
    if (text === undefined) throw new TypeError(`not serialisable as JSON: ${typeof value}`);
    return text;
  }
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
}

/** What a signature covers: the certificate less its signature. */
export function signedBytes(certificate: Certificate | Record<string, unknown>): Buffer {
  const { signature: _ignored, ...rest } = certificate as Record<string, unknown>;
  return Buffer.from(canonicalJson(rest), 'utf8');
}

export class KeyError extends Error {}

/** An Ed25519 private key from PEM; anything else is refused with a message naming the option. */
export function privateKeyFrom(pem: string, origin: string): KeyObject {
  let key: KeyObject;
  try {
    key = createPrivateKey(pem);
  } catch (error) {
    throw new KeyError(`--sign-key ${origin}: not a private key in PEM (${(error as Error).message.split('\n')[0]})`);
  }
  if (key.asymmetricKeyType !== 'ed25519') throw new KeyError(`--sign-key ${origin}: an Ed25519 key is needed, not ${key.asymmetricKeyType}`);
  return key;
}

/** An Ed25519 public key from PEM (a private key's PEM gives its public half). */
export function publicKeyFrom(pem: string, origin: string): KeyObject {
  let key: KeyObject;
  try {
    key = createPublicKey(pem);
  } catch (error) {
    throw new KeyError(`--public-key ${origin}: not a public key in PEM (${(error as Error).message.split('\n')[0]})`);
  }
  if (key.asymmetricKeyType !== 'ed25519') throw new KeyError(`--public-key ${origin}: an Ed25519 key is needed, not ${key.asymmetricKeyType}`);
  return key;
}

/** sha256 of a key's public half (SubjectPublicKeyInfo, DER): which key signed. */
export const fingerprint = (key: KeyObject): string => sha256((key.type === 'public' ? key : createPublicKey(key)).export({ type: 'spki', format: 'der' }));

/** The certificate with its signature (any previous one replaced), last among its fields. */
export function signCertificate(certificate: Certificate, privateKey: KeyObject): Certificate {
  const { signature: _old, ...rest } = certificate;
  const value = sign(null, signedBytes(rest), privateKey).toString('base64');
  return { ...rest, signature: { algorithm: 'ed25519', publicKeySha256: fingerprint(privateKey), signedOver: SIGNED_OVER, value } };
}

/** What is wrong with a certificate's signature under `publicKey`, or undefined when it holds. */
export function signatureProblem(certificate: Record<string, unknown>, publicKey: KeyObject): string | undefined {
  const signature = certificate.signature as Partial<Signature> | undefined;
  if (!signature || typeof signature !== 'object') return 'the certificate is not signed';
  if (signature.algorithm !== 'ed25519' || typeof signature.value !== 'string')
    return `the signature is not one this kit makes (algorithm ${JSON.stringify(signature.algorithm)})`;
  const ok = verify(null, signedBytes(certificate), publicKey, Buffer.from(signature.value, 'base64'));
  if (ok) return undefined;
  const given = fingerprint(publicKey);
  return signature.publicKeySha256 && signature.publicKeySha256 !== given
    ? `the signature does not match: it was made by the key sha256:${signature.publicKeySha256}, not by the given public key sha256:${given}`
    : 'the signature does not match: the certificate was changed after it was signed';
}

/**
 * What the certificate's first field says, so that nobody reads a waived pass, or a pass under
 * someone's own profile, as a clean one; undefined when there is nothing to say.
 */
export function noticeOf(waivers: readonly CertifiedWaiver[], profile: ProfileInForce): string | undefined {
  const parts: string[] = [];
  for (const w of waivers.filter((x) => x.state === 'in force')) {
    const applied = w.appliedInRuns.length ? `applied in run ${w.appliedInRuns.join(', ')}` : 'not needed in any run';
    parts.push(`waived: ${w.id} (${w.reason}; ${w.link}; ${applied})`);
  }
  if (!profile.reference) parts.push(`judged by a custom profile "${profile.name}" (${profile.path ?? 'no file'}), not the reference profile`);
  return parts.length ? parts.join('; ') : undefined;
}

export const profileLine = (profile: ProfileInForce): string => (profile.reference ? 'reference' : `custom (${profile.path ?? profile.name})`);

export interface CertificateFacts {
  kit: { name: string; version: string };
  spec: Certificate['spec'];
  profile: ProfileInForce;
  target: Certificate['target'];
  issuedAt: string;
  runs: CertifiedRun[];
  waivers: Certificate['waivers'];
  durability?: CertifiedDurability;
}

/** The certificate, its fields in reading order: the notice (if any) first, then the verdict. */
export function buildCertificate(facts: CertificateFacts): Certificate {
  const notice = noticeOf(facts.waivers.entries, facts.profile);
  return {
    ...(notice ? { notice } : {}),
    format: CERTIFICATE_FORMAT,
    verdict: certificateVerdict(
      facts.runs.map((r) => r.verdict),
      facts.durability,
    ),
    profile: profileLine(facts.profile),
    kit: facts.kit,
    spec: facts.spec,
    profileInForce: facts.profile,
    target: facts.target,
    issuedAt: facts.issuedAt,
    seeds: facts.runs.map((r) => r.seed),
    runs: facts.runs,
    waivers: facts.waivers,
    ...(facts.durability ? { durability: facts.durability } : {}),
  };
}
