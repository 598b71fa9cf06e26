import { caseTests } from './case';
import { CASES } from './cases/page';

caseTests('PAGE', CASES);
