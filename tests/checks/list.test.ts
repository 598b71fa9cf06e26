import { caseTests } from './case';
import { CASES } from './cases/list';

caseTests('LIST', CASES);
