import { runService } from '@hoptrack/runtime';
import { fanoutService } from './service';

await runService(fanoutService);
