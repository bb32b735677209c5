import { runService } from '@hoptrack/runtime';
import { challengesService } from './service';

await runService(challengesService);
