import { loadConfig } from './config';
import { buildDataset, saveDataset } from './dataset';
import { profile } from '../schemas';

/** Runs once per run (per shard), after the embedded reference server is up: the shared create-and-wait phase. */
export default async function globalSetup(): Promise<void> {
  const config = loadConfig();
  if (!config.baseURL) return; // the kit fixture reports the missing target in every test
  saveDataset(await buildDataset({ ...config, baseURL: config.baseURL }, profile));
}
