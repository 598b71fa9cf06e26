import { caseTests } from './case';
import { CASES } from './cases/scope';

caseTests('SCOPE', CASES);
