import { writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Output } from './output';
import { loadProfile } from '../schemas/profile';

/** conformance.json: the machine-readable verdict (shape: schemas/conformance-report.schema.json). */
export const jsonOutput: Output = {
  files: ['conformance.json'],
  write(summary, reportDir, settings) {
    const report = { ...summary, profile: { ...summary.profile, settings: profileSettings(summary.profile.path) } };
    writeFileSync(path.join(reportDir, 'conformance.json'), `${JSON.stringify(report, null, 2)}\n`);
  },
};

/**
 * The settings of the profile the run judged by, so that `agc compare` can set implementations' choices side by side from
 * the reports alone. Its $defs are left out: they restate the settings as JSON Schemas. null where the file is no longer
 * there to read (a merge of shards on another machine): the report then says nothing rather than something wrong.
 */
export function profileSettings(profilePath: string | null): Record<string, unknown> | null {
  try {
    const { $defs: _schemas, ...settings } = loadProfile(profilePath ?? undefined);
    return settings;
  } catch {
    return null;
  }
}
