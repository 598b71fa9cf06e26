/**
 * conformance.json alone, as a reporter of its own: the self-test's runs read only that file, so they spare the
 * other outputs' rendering (reporters/conformance.ts writes them all from the same verdict).
 */
import { jsonOutput } from '../../reporters/json';
import { reporterOf } from '../../reporters/output';

export default reporterOf(jsonOutput);
